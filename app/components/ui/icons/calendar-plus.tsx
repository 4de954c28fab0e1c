import { drawnIcon } from "./icon";

// Drawn after Lucide's calendar-plus icon (ISC licence).
export const CalendarPlus = drawnIcon("M16 18h6M16 2v3M19 15v6M21 11.5V5a2 2 0 00-2-2H5a2 2 0 00-2 2v14a2 2 0 002 2h8.3M3 9h18M8 2v3");
