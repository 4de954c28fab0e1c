import { drawnIcon } from "./icon";

// Drawn after Lucide's menu icon (ISC licence).
export const Menu = drawnIcon("M4 5h16M4 12h16M4 19h16");
