import { drawnIcon } from "./icon";

// Drawn after Lucide's calendar-days icon (ISC licence).
export const CalendarDays = drawnIcon(
  "M8 2v3M16 2v3M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1 -2 2h-14a2 2 0 0 1 -2 -2v-14a2 2 0 0 1 2 -2zM3 9h18M8 13h.01M12 13h.01M16 13h.01M8 17h.01M12 17h.01M16 17h.01",
);
