import { drawnIcon } from "./icon";

// Drawn after Lucide's plus icon (ISC licence).
export const Plus = drawnIcon("M5 12h14M12 5v14");
