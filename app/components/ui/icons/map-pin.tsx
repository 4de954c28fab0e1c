import { drawnIcon } from "./icon";

// Drawn after Lucide's map-pin icon (ISC licence).
export const MapPin = drawnIcon(
  "M20 10c0 4.993-5.539 10.193-7.399 11.799a1 1 0 0 1-1.202 0C9.539 20.193 4 14.993 4 10a8 8 0 0 1 16 0M9 10a3 3 0 1 0 6 0a3 3 0 1 0 -6 0",
);
