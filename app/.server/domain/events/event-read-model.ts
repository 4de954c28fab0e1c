import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import { storedRank, withAuthors } from "../progression/authors";
import { readsFrom, tag } from "../../cache/page-tags";
import { excerptOf } from "~/lib/text";
import { formatInZone } from "~/lib/time-zones";
import { eventsGoingTo, findEvent, findRsvp, listEvents, rsvpMembers, type EventRow } from "./event-repository";
import { memberTimeZone } from "../accounts/member-repository";

/**
 * What the event pages show. Times are formatted here, on the server, in the viewer's zone (the
 * event's own when signed out) with the event's own beside it, so the page shows the same text
 * before and after hydration.
 */

/** How many past events the list keeps readable below the upcoming ones. */
export const PAST_EVENTS_SHOWN = 10;
const UPCOMING_MAX = 100;

export async function viewerTimeZone(db: Db, viewer: Viewer | null): Promise<string | null> {
  return viewer ? memberTimeZone(db, viewer.id) : null;
}

function times(event: Pick<EventRow, "starts_at" | "ends_at" | "time_zone">, zone: string | null) {
  const start = new Date(event.starts_at);
  const end = new Date(event.ends_at);
  const shownIn = zone ?? event.time_zone;
  return {
    startsAt: start.toISOString(),
    endsAt: end.toISOString(),
    timeZone: event.time_zone,
    shownIn,
    start: formatInZone(start, shownIn),
    end: formatInZone(end, shownIn),
    /** The same times in the event's own zone, when the viewer's differs. */
    own: shownIn === event.time_zone ? null : { start: formatInZone(start, event.time_zone), end: formatInZone(end, event.time_zone) },
  };
}

function summary(row: Awaited<ReturnType<typeof listEvents>>[number], zone: string | null) {
  const going = Number(row.going_count ?? 0);
  return {
    id: Number(row.id),
    title: row.title,
    excerpt: excerptOf(row.description),
    path: row.path,
    ...times(row, zone),
    onlineUrl: row.online_url,
    place: row.place,
    capacity: row.capacity,
    going,
    placesLeft: Math.max(0, row.capacity - going),
    cancelled: row.cancelled_at !== null,
    host: { name: row.host_name, handle: row.host_handle, rank: storedRank(row.host_rank), avatar: row.host_avatar },
  };
}

/** Upcoming events (not yet ended, not cancelled) and the most recent past ones, in one query each. */
export async function eventLists(db: Db, viewer: Viewer | null, now = new Date()) {
  const zone = await viewerTimeZone(db, viewer);
  const at = now.toISOString();
  const [upcoming, past] = await Promise.all([
    listEvents(db, { endingAfter: at, includeCancelled: false, limit: UPCOMING_MAX }),
    listEvents(db, { endedBefore: at, includeCancelled: false, newestFirst: true, limit: PAST_EVENTS_SHOWN }),
  ]);
  // The viewer's own "You're going" marks: an RSVP of theirs, or one moved for them (a waitlist
  // promotion, a cancellation), writes tag.events, which this page reads (ADR 0040).
  const going = viewer
    ? await eventsGoingTo(
        db,
        viewer.id,
        upcoming.map((e) => Number(e.id)),
      )
    : new Set<number>();
  const hosts = [...new Set([...upcoming, ...past].map((e) => e.host_id))];
  // Which events show and their places left change with any event or RSVP; each host's name and rank, with their member tag.
  readsFrom(tag.events, ...hosts.map(tag.member));
  return {
    upcoming: upcoming.map((e) => ({ ...summary(e, zone), viewerGoing: going.has(Number(e.id)) })),
    past: past.map((e) => summary(e, zone)),
  };
}

/** Upcoming events for the calendar feed, cancelled ones included so subscribers see them go. */
export async function feedEvents(db: Db, now = new Date()) {
  const events = await listEvents(db, { endingAfter: now.toISOString(), includeCancelled: true, limit: UPCOMING_MAX });
  // Each entry names its host.
  readsFrom(tag.events, ...new Set(events.map((e) => tag.member(e.host_id))));
  return events;
}

/** One event for its calendar file, past and cancelled ones too; it names its host. */
export async function calendarEvent(db: Db, id: number) {
  const event = await findEvent(db, id);
  if (event) readsFrom(tag.event(id), tag.member(event.host_id));
  return event;
}

/** One event with its host, who is going, the waitlist's length and the viewer's own answer. */
export async function eventPage(db: Db, id: number, viewer: Viewer | null, now = new Date()) {
  const event = await findEvent(db, id);
  if (!event) return null;
  readsFrom(tag.event(id));
  const [zone, going, waitlisted, mine] = await Promise.all([
    viewerTimeZone(db, viewer),
    rsvpMembers(db, id, "going"),
    rsvpMembers(db, id, "waitlisted"),
    viewer ? findRsvp(db, id, viewer.id) : Promise.resolve(undefined),
  ]);
  const [withHost] = withAuthors([
    {
      author_id: event.host_id,
      author_name: event.host_name,
      author_handle: event.host_handle,
      author_rank: event.host_rank,
      author_avatar: event.host_avatar,
    },
  ]);
  const goingPeople = withAuthors(going);
  const started = new Date(event.starts_at).getTime() <= now.getTime();
  const ended = new Date(event.ends_at).getTime() <= now.getTime();
  return {
    id: Number(event.id),
    title: event.title,
    description: event.description,
    descriptionHtml: event.description_html,
    path: event.path,
    ...times(event, zone),
    onlineUrl: event.online_url,
    place: event.place,
    capacity: event.capacity,
    going: goingPeople.map((p) => p.author),
    waitlistLength: waitlisted.length,
    placesLeft: Math.max(0, event.capacity - going.length),
    host: withHost.author,
    hostId: event.host_id,
    cancelled: event.cancelled_at !== null,
    started,
    ended,
    mine: mine
      ? { status: mine.status, waitlistPosition: mine.status === "waitlisted" ? waitlisted.findIndex((w) => w.author_id === viewer!.id) + 1 : null }
      : null,
  };
}

/** The event as its edit form shows it. */
export async function eventForEditing(db: Db, id: number) {
  return findEvent(db, id);
}
