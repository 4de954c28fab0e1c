// Calendar days as "YYYY-MM-DD" strings in a member's time zone (ADR 0022). A check-in belongs to
// the day on the member's own calendar, not to a UTC day, so the day is computed from the instant
// and the zone, and day arithmetic is done on the date alone (no clock time, no DST surprises).

import { formatDate } from "./dates";

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * Whether the runtime knows this zone name (offsets included); what a member may choose is
 * time-zones.ts's isTimeZone, stricter.
 */
function runtimeKnowsZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The calendar day of an instant in a zone; an unknown zone counts as UTC. */
export function localDay(at: Date, timeZone: string): string {
  const zone = runtimeKnowsZone(timeZone) ? timeZone : "UTC";
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const toUtc = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const DAY_MS = 86_400_000;

export function addDays(day: string, days: number): string {
  return new Date(toUtc(day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}

/** Every day from `from` to `to`, both included. */
export function daysFrom(from: string, to: string): string[] {
  const out: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) out.push(day);
  return out;
}

/** "Nov 22, 2026" for a day string (built by hand, as `formatDate` is: no Intl formatter at load). */
export function formatDay(day: string): string {
  return formatDate(new Date(toUtc(day)));
}

/** The weeks (Monday first) that cover an attempt, for its calendar. */
export function calendarWeeks(startsOn: string, endsOn: string): (string | null)[][] {
  const weekday = (day: string) => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  const weeks: (string | null)[][] = [];
  let week: (string | null)[] = Array.from({ length: weekday(startsOn) }, () => null);
  for (let day = startsOn; day <= endsOn; day = addDays(day, 1)) {
    week.push(day);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return weeks;
}
