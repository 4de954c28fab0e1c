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

/** "3 days ago", from the server's clock, so server and browser render the same words. */
export function timeAgo(value: string | Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - toDate(value).getTime()) / 1000));
  const steps: [number, string][] = [
    [60, "second"],
    [60, "minute"],
    [24, "hour"],
    [30, "day"],
    [12, "month"],
  ];
  let amount = seconds;
  for (const [size, unit] of steps) {
    if (amount < size) return amount <= 1 && unit === "second" ? "just now" : `${amount} ${unit}${amount === 1 ? "" : "s"} ago`;
    amount = Math.floor(amount / size);
  }
  return `${amount} year${amount === 1 ? "" : "s"} ago`;
}

/** Midnight UTC of the given moment's day, as an ISO string (daily limits and caps count from it). */
export function startOfUtcDay(at: Date): string {
  return `${at.toISOString().slice(0, 10)}T00:00:00.000Z`;
}
