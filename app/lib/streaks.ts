import { addDays, daysBetween } from "./calendar-days";

// Streaks (PRODUCT.md §3, ADR 0022): consecutive calendar days with a check-in, where within any
// seven consecutive days one missed day is a rest day that keeps the streak; a second missed day in
// those seven breaks it. Today, not yet checked in, is no missed day. A streak's length is the
// number of days in it with a check-in (rest days keep it alive but add nothing).

/** The days that make a rolling window: two misses fewer than this many days apart break a streak. */
export const REST_WINDOW_DAYS = 7;

/** The streak that ends on `end`, walking back day by day. */
function streakEndingAt(days: ReadonlySet<string>, end: string, first: string): number {
  let count = 0;
  let restDay: string | null = null;
  for (let day = end; day >= first; day = addDays(day, -1)) {
    if (days.has(day)) {
      count++;
      continue;
    }
    // A second miss within the same seven days ends the streak; so does a miss before any check-in.
    if (restDay !== null && daysBetween(day, restDay) < REST_WINDOW_DAYS) break;
    restDay = day;
  }
  return count;
}

export interface Streaks {
  current: number;
  best: number;
}

export function streaksOf(checkIns: Iterable<string>, today: string): Streaks {
  const days = new Set(checkIns);
  if (days.size === 0) return { current: 0, best: 0 };
  const sorted = [...days].sort();
  const first = sorted[0];
  const current = streakEndingAt(days, days.has(today) ? today : addDays(today, -1), first);
  let best = current;
  for (const day of sorted) best = Math.max(best, streakEndingAt(days, day, first));
  return { current, best };
}
