import { drawnIcon } from "./icon";

// Drawn after Lucide's mountain icon (ISC licence).
export const Mountain = drawnIcon("M8 3l4 8 5-5 5 15H2L8 3z");
