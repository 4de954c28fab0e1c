/** Timestamps arrive as ISO strings (SQLite) or Dates (PostgreSQL); this makes them one thing. */
export function toDate(value: string | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

export function toIso(value: string | Date): string {
  return toDate(value).toISOString();
}

const dateFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
export function formatDate(value: string | Date): string {
  return dateFormat.format(toDate(value));
}

/** Midnight UTC of the given moment's day, as an ISO string (daily limits and caps count from it). */
export function startOfUtcDay(at: Date): string {
  return `${at.toISOString().slice(0, 10)}T00:00:00.000Z`;
}
