import { drawnIcon } from "./icon";

// Drawn after Lucide's lock icon (ISC licence).
export const Lock = drawnIcon("M5 11h14a2 2 0 0 1 2 2v7a2 2 0 0 1 -2 2h-14a2 2 0 0 1 -2 -2v-7a2 2 0 0 1 2 -2zM7 11V7a5 5 0 0 1 10 0v4");
