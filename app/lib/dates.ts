/** Timestamps arrive as ISO strings (SQLite) or Dates (PostgreSQL); this makes them one thing. */
export function toDate(value: string | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

export function toIso(value: string | Date): string {
  return toDate(value).toISOString();
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/**
 * "Nov 23, 2026" (UTC), as Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" })
 * writes it. Built by hand because a discussion page formats a date per post and Intl's formatter
 * was 1.5% of a signed-in page's server time (issue 13); dates.test.ts holds it to Intl's output.
 */
export function formatDate(value: string | Date): string {
  const at = toDate(value);
  return `${MONTHS[at.getUTCMonth()]} ${at.getUTCDate()}, ${at.getUTCFullYear()}`;
}

/** "Nov 23, 2026, 14:05 UTC": a moment to the minute, where the day alone is not enough (an edit's time). */
export function formatDateTimeUtc(value: string | Date): string {
  const at = toDate(value);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${formatDate(at)}, ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())} UTC`;
}

/** Midnight UTC of the given moment's day, as an ISO string (daily limits and caps count from it). */
export function startOfUtcDay(at: Date): string {
  return `${at.toISOString().slice(0, 10)}T00:00:00.000Z`;
}
