import { drawnIcon } from "./icon";

// Drawn after Lucide's check-circle-2 icon (ISC licence).
export const CheckCircle2 = drawnIcon("M2 12a10 10 0 1 0 20 0a10 10 0 1 0 -20 0M16 9l-5.5 5.5L8 12");
