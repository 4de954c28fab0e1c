import { drawnIcon } from "./icon";

// Drawn after Lucide's search icon (ISC licence).
export const Search = drawnIcon("M3 11a8 8 0 1 0 16 0a8 8 0 1 0 -16 0M21 21l-4.3-4.3");
