import { drawnIcon } from "./icon";

// Drawn after Lucide's eye icon (ISC licence).
export const Eye = drawnIcon(
  "M2.062 12.348a1 1 0 0 1 0-.696 10.75 10.75 0 0 1 19.876 0 1 1 0 0 1 0 .696 10.75 10.75 0 0 1-19.876 0M9 12a3 3 0 1 0 6 0a3 3 0 1 0 -6 0",
);
