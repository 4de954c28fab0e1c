import { drawnIcon } from "./icon";

// Drawn after Lucide's list-filter icon (ISC licence).
export const ListFilter = drawnIcon("M2 5h20M6 12h12M9 19h6");
