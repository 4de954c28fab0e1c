import { drawnIcon } from "./icon";

// Drawn after Lucide's music icon (ISC licence).
export const Music = drawnIcon(
  "M21 16V3a1 1 0 0 0-1.28-.96l-10 2.917a1 1 0 0 0-.72.96V19M15 16a3 3 0 1 0 6 0a3 3 0 1 0 -6 0M3 19a3 3 0 1 0 6 0a3 3 0 1 0 -6 0",
);
