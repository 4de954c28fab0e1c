import { drawnIcon } from "./icon";

// Drawn after Lucide's message-square-dashed icon (ISC licence).
export const MessageSquareDashed = drawnIcon(
  "M14 3h2M16 19h-2M2 12v-2M2 16v5.286a.71.71 0 0 0 1.212.502l1.149-1.149M20 19a2 2 0 0 0 2-2v-1M22 10v2M22 6V5a2 2 0 0 0-2-2M4 3a2 2 0 0 0-2 2v1M8 19h2M8 3h2",
);
