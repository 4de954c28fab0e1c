import { drawnIcon } from "./icon";

// Drawn after Lucide's rss icon (ISC licence).
export const Rss = drawnIcon("M4 11a9 9 0 0 1 9 9M4 4a16 16 0 0 1 16 16M4 19a1 1 0 1 0 2 0a1 1 0 1 0 -2 0");
