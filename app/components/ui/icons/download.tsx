import { drawnIcon } from "./icon";

// Drawn after Lucide's download icon (ISC licence).
export const Download = drawnIcon("M12 15V3M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5");
