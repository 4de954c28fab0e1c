import { drawnIcon } from "./icon";

// Drawn after Lucide's log-in icon (ISC licence).
export const LogIn = drawnIcon("M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4M10 17 15 12 10 7M15 12 3 12");
