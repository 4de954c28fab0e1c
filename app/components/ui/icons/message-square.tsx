import { drawnIcon } from "./icon";

// Drawn after Lucide's message-square icon (ISC licence).
export const MessageSquare = drawnIcon("M22 17a2 2 0 0 1-2 2H6.828a2 2 0 0 0-1.414.586l-2.202 2.202A.71.71 0 0 1 2 21.286V5a2 2 0 0 1 2-2h16a2 2 0 0 1 2 2z");
