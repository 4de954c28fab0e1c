import { drawnIcon } from "./icon";

// Drawn after Lucide's users icon (ISC licence).
export const Users = drawnIcon(
  "M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M16 3.128a4 4 0 0 1 0 7.744M22 21v-2a4 4 0 0 0-3-3.87M5 7a4 4 0 1 0 8 0a4 4 0 1 0 -8 0",
);
