import { createHash } from "node:crypto";
import { createEvents, type EventAttributes } from "ics";
import { matchesIfNoneMatch } from "../../if-none-match";
import { refoldCalendar } from "./calendar-lines";

/**
 * Calendar files (RFC 5545) for one event and for the feed of upcoming events, written by the
 * maintained `ics` library, which escapes text (commas, semicolons, backslashes, line breaks); its
 * lines are folded again by octets (calendar-lines.ts). Times go out in UTC (DTSTART:…Z), which every calendar converts to its own
 * zone; the UID is fixed per event and site, so a calendar that imports the file twice or
 * subscribes to the feed updates one entry instead of adding another (ADR 0024).
 */

export interface CalendarEvent {
  id: number;
  title: string;
  description: string;
  starts_at: string | Date;
  ends_at: string | Date;
  time_zone: string;
  online_url: string | null;
  place: string | null;
  host_name: string;
  updated_at: string | Date;
  cancelled_at: string | Date | null;
}

/**
 * Text as RFC 5545 lets a TEXT value hold it (§3.3.11): a line break of any kind (CRLF, a lone CR,
 * U+2028/U+2029) becomes the one newline the library escapes as `\n`, and every other control
 * character (C0 but the tab, DEL, C1) is dropped. The library escapes only `\n`: a lone CR went out
 * raw, and a calendar reads it as the end of the line.
 */
export function calendarText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  return text.replace(/\r\n?|[\u2028\u2029]/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "");
}

export const eventUid = (baseUrl: string, id: number) => `event-${id}@${new URL(baseUrl).host}`;

/** The library reads and checks `timestamp` (DTSTAMP) but leaves it out of its types. */
type WithTimestamp = EventAttributes & { timestamp: number };

function attributes(baseUrl: string, event: CalendarEvent): WithTimestamp {
  const url = `${baseUrl}/events/${event.id}`;
  const description = [
    event.description,
    "",
    `Hosted by ${event.host_name}. Times set in ${event.time_zone}.`,
    event.online_url ? `Join online: ${event.online_url}` : null,
    url,
  ]
    .filter((line) => line !== null)
    .join("\n");
  return {
    uid: eventUid(baseUrl, event.id),
    title: calendarText(event.title),
    description: calendarText(description),
    start: new Date(event.starts_at).getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    end: new Date(event.ends_at).getTime(),
    endInputType: "utc",
    endOutputType: "utc",
    location: event.place !== null ? calendarText(event.place) : (event.online_url ?? undefined),
    url,
    status: event.cancelled_at ? "CANCELLED" : "CONFIRMED",
    // Seconds since 2020: grows with every edit, so calendars take the newest version.
    sequence: Math.max(0, Math.floor((new Date(event.updated_at).getTime() - Date.UTC(2020, 0, 1)) / 1000)),
    lastModified: new Date(event.updated_at).getTime(),
    // The library's default is the time of the request: the same event would make another file, and
    // another ETag, on every request. The event's last change is when its information was revised.
    timestamp: new Date(event.updated_at).getTime(),
    productId: "innerpeace-outerstrength/events",
  };
}

/** One VCALENDAR holding the given events; throws if the library refuses one (a bug of ours). */
export function calendarFile(baseUrl: string, events: CalendarEvent[], name?: string): string {
  const { error, value } = createEvents(
    events.map((e) => attributes(baseUrl, e)),
    { productId: "innerpeace-outerstrength/events", ...(name ? { calName: calendarText(name) } : {}) },
  );
  if (error || value === null) throw error ?? new Error("calendar file could not be written");
  return refoldCalendar(value);
}

/**
 * The file is the same bytes for the same events (DTSTAMP included), so a hash of it is the
 * validator; weak, so that compression on the way out leaves it true.
 */
export function calendarEtag(body: string) {
  return `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/**
 * A calendar file as an answer: with its ETag, and 304 without a body when the calendar app
 * already holds this version (a subscribed feed is polled, often hourly).
 */
export function calendarResponse(request: Request, body: string, headers: Record<string, string>) {
  const etag = calendarEtag(body);
  const all = { ...headers, "content-type": "text/calendar; charset=utf-8", "cache-control": "no-cache", etag };
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: all });
  return new Response(body, { headers: all });
}
