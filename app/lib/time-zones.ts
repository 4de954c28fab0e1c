// Event times (ADR 0024): stored in UTC, written and shown in IANA time zones. Intl is the only
// source of zone rules here, on the server and in the browser alike, so no zone database ships.

const NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * The canonical IANA name of a zone ("europe/berlin" → "Europe/Berlin"), or null when no such zone
 * exists. Offsets ("+01:00") and abbreviations other than UTC are refused: they carry no rules.
 */
export function canonicalTimeZone(name: string): string | null {
  if (name.length > 64 || !NAME.test(name)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const isTimeZone = (name: string) => canonicalTimeZone(name) !== null;

/** The zones offered in the event form; UTC first. */
export function timeZoneChoices(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...zones.filter((z) => z !== "UTC")];
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Wall-clock parts of an instant in a zone. */
function partsIn(at: Date, zone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute"), second: get("second") };
}

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
function offsetAt(at: Date, zone: string): number {
  const p = partsIn(at, zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant a wall-clock time ("2026-12-01T18:00", as an <input type="datetime-local"> sends it)
 * names in a zone, or null for a malformed or impossible date (or one past 9999 in UTC). A time
 * skipped by a clock change moves forward by the gap, as calendar apps do.
 */
export function zonedToUtc(local: string, zone: string): Date | null {
  const m = LOCAL.exec(local);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number);
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(guess);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // Two passes settle the offset on either side of a clock change.
  let at = guess - offsetAt(new Date(guess), zone);
  at = guess - offsetAt(new Date(at), zone);
  // 9999-12-31T20:00 in New York is in the year 10000 in UTC, which an ISO string writes "+010000-…"
  // and PostgreSQL's timestamptz refuses: an instant past the last four-digit year is no date here.
  const utc = new Date(at);
  return utc.getUTCFullYear() <= 9999 ? utc : null;
}

/** The wall-clock time of an instant in a zone, as a datetime-local input takes it. */
export function utcToZoned(at: Date, zone: string): string {
  const p = partsIn(at, zone);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

/** "Tue, 1 Dec 2026, 18:00 CET": an instant as a reader in that zone reads it. */
export function formatInZone(at: Date, zone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).format(at);
}

/** Every member starts here until the browser (at join) or the member (in settings) says otherwise. */
export const DEFAULT_TIME_ZONE = "UTC";

/** The IANA zones this runtime knows, with "UTC" (some runtimes list only "Etc/UTC"), sorted: the settings list. */
export function timeZoneNames(): string[] {
  const names = new Set(Intl.supportedValuesOf("timeZone"));
  names.add(DEFAULT_TIME_ZONE);
  return [...names].sort();
}
