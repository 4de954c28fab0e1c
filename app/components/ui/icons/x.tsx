import { drawnIcon } from "./icon";

// Drawn after Lucide's x icon (ISC licence).
export const X = drawnIcon("M18 6 6 18M6 6l12 12");
