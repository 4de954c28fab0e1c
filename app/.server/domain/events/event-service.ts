import { notify, ringBells, type Notice } from "../notifications/notification-service";
import { indexSearch } from "../../db/search/search-documents";
import { renderMarkdown } from "../../markdown";
import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import { lockKeys } from "../../db/lock-keys";
import type { RsvpStatus } from "../../db/schema";
import { enqueueMail } from "../../mail/outbox";
import { fail, writeAllowed, type Outcome } from "../outcome";
import { boundKey } from "../submission-key";
import type { PathId } from "~/lib/domain-values";
import { cancelledMail, changedMail, promotedMail, type MailEvent, type MailMember } from "./event-mails";
import {
  countGoing,
  findEvent,
  findEventIdBySubmission,
  findRsvp,
  insertEvent,
  nextWaitlistPosition,
  rsvpMembers,
  updateEvent,
  upsertRsvp,
  waitlistHead,
  type EventRow,
} from "./event-repository";
import { isAdvisor } from "../accounts/member-repository";
import { tag, wrote } from "../../cache/page-tags";

/**
 * Events (PRODUCT.md §4): advisors and admins create, edit and cancel them; members RSVP. Every
 * change that touches places runs under a lock on the event, so counting the places left and
 * taking one is a single step on both engines, and the waitlist moves up in the same step that
 * frees a place (ADR 0024).
 */

export const HOSTS_ONLY_MESSAGE = "Only advisors and admins can create events.";
export const EDIT_HOSTS_ONLY_MESSAGE = "Only the event's host or an admin can edit or cancel it.";
export const FORMER_HOST_MESSAGE = "Only advisors and admins can edit or cancel events.";
export const EVENT_CANCELLED_MESSAGE = "This event was cancelled.";
export const EVENT_STARTED_MESSAGE = "This event has already started, so RSVPs are closed.";

export interface EventInput {
  title: string;
  description: string;
  path: PathId;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  onlineUrl: string | null;
  place: string | null;
  capacity: number;
}

const eventLock = (id: number) => `event:${id}`;

/** Advisors and admins host events. */
export async function mayHostEvents(db: Db, viewer: Viewer | null): Promise<boolean> {
  if (!viewer) return false;
  return viewer.role === "admin" || (await isAdvisor(db, viewer.id));
}

/**
 * Who may edit or cancel an event: an admin, or its host while the host still holds the role that
 * let them host. A revoked advisor keeps their events' pages but no longer manages them (issue 25).
 */
export async function manageRefusal(db: Db, viewer: Viewer | null, event: Pick<EventRow, "host_id">): Promise<string | null> {
  if (viewer?.role === "admin") return null;
  if (!viewer || viewer.id !== event.host_id) return EDIT_HOSTS_ONLY_MESSAGE;
  return (await isAdvisor(db, viewer.id)) ? null : FORMER_HOST_MESSAGE;
}

function checkTimes(input: EventInput, now: Date): Outcome<null> {
  if (input.endsAt.getTime() <= input.startsAt.getTime()) return fail(400, "The end must be after the start", "endsAt");
  if (input.startsAt.getTime() <= now.getTime()) return fail(400, "The start must be in the future", "startsAt");
  return { ok: true, value: null };
}

const columns = (input: EventInput) => ({
  title: input.title,
  description: input.description,
  // Rendered once, when written: no page view runs the Markdown parser (ADR 0027).
  description_html: renderMarkdown(input.description),
  path: input.path,
  starts_at: input.startsAt.toISOString(),
  ends_at: input.endsAt.toISOString(),
  time_zone: input.timeZone,
  online_url: input.onlineUrl,
  place: input.place,
  capacity: input.capacity,
});

/**
 * The form's key bound to every field of the event (ADR 0052): the same form sent twice is one
 * event, another event sent with the key of a kept page is an event of its own.
 */
function submittedEventKey(input: EventInput & { submissionKey: string }) {
  const { title, description, path, startsAt, endsAt, timeZone, onlineUrl, place, capacity } = input;
  return boundKey(input.submissionKey, [title, description, path, startsAt, endsAt, timeZone, onlineUrl, place, capacity]);
}

export async function createEvent(
  services: AppServices,
  viewer: Viewer,
  input: EventInput & { submissionKey: string },
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const { db } = services;
  if (!(await mayHostEvents(db, viewer))) return fail(403, HOSTS_ONLY_MESSAGE);
  const times = checkTimes(input, now);
  if (!times.ok) return times;
  const key = submittedEventKey(input);
  const earlier = await findEventIdBySubmission(db, viewer.id, key);
  if (earlier) return { ok: true, value: { id: earlier } };
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  const at = now.toISOString();
  const inserted = await db.transaction().execute(async (trx) => {
    const made = await insertEvent(trx, { ...columns(input), host_id: viewer.id, created_at: at, updated_at: at, cancelled_at: null, submission_key: key });
    // Found by its words from the commit on (issue 30).
    if (made) await indexSearch(trx, [{ kind: "event", id: made }]);
    return made;
  });
  const id = inserted ?? (await findEventIdBySubmission(db, viewer.id, key));
  if (!id) return fail(409, "The event could not be saved. Please try again.");
  wrote(tag.events, tag.event(id));
  return { ok: true, value: { id } };
}

/** Moves waitlisted members up while places are left; each promoted member gets a mail. */
async function promote(trx: Db, baseUrl: string, event: MailEvent & { capacity: number }, now: Date) {
  const free = event.capacity - (await countGoing(trx, event.id));
  if (free <= 0) return [];
  const next = await waitlistHead(trx, event.id, free);
  for (const m of next) {
    await upsertRsvp(trx, event.id, m.member_id, "going", null, now.toISOString());
    await enqueueMail(trx, promotedMail(baseUrl, event, m), now);
  }
  const promoted = next.map((m) => m.member_id);
  await notify(
    trx,
    null,
    promoted.map((memberId) => eventNotice(event, memberId, "event.promoted")),
    now,
  );
  return promoted;
}

/** What a notice about an event opens: its page (issue 28). */
function eventNotice(event: { id: number; title: string }, memberId: string, kind: "event.changed" | "event.cancelled" | "event.promoted"): Notice {
  return { memberId, kind, subject: `event:${event.id}`, parent: null, title: event.title, url: `/events/${event.id}` };
}

/** Everyone going is mailed and told (the host, who made the change, only mailed as before). */
async function mailGoing(
  trx: Db,
  event: { id: number; title: string },
  compose: (m: MailMember) => Parameters<typeof enqueueMail>[1],
  notice: { kind: "event.changed" | "event.cancelled"; actorId: string },
  now: Date,
) {
  const going = await rsvpMembers(trx, event.id, "going");
  for (const m of going) {
    await enqueueMail(trx, compose({ name: m.author_name, email: m.email, time_zone: m.time_zone }), now);
  }
  return notify(
    trx,
    notice.actorId,
    going.map((m) => eventNotice(event, m.author_id, notice.kind)),
    now,
  );
}

export async function editEvent(services: AppServices, viewer: Viewer, id: number, input: EventInput, now = new Date()): Promise<Outcome<{ id: number }>> {
  const { db } = services;
  const event = await findEvent(db, id);
  if (!event) return fail(404, "Event not found");
  const refusal = await manageRefusal(db, viewer, event);
  if (refusal) return fail(403, refusal);
  if (event.cancelled_at) return fail(409, EVENT_CANCELLED_MESSAGE);
  if (new Date(event.starts_at).getTime() <= now.getTime()) return fail(409, "This event has already started and can no longer be edited.");
  const times = checkTimes(input, now);
  if (!times.ok) return times;
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  // Its page, its card in the list (and who moved up from the waitlist).
  wrote(tag.events, tag.event(id));
  const edited = await db.transaction().execute(async (trx) => {
    await lockKeys(trx, [eventLock(id)]);
    const going = await countGoing(trx, id);
    if (input.capacity < going) {
      return fail(409, `Capacity cannot be less than the ${going} members already going.`, "capacity");
    }
    await updateEvent(trx, id, { ...columns(input), updated_at: now.toISOString() });
    await indexSearch(trx, [{ kind: "event", id }]);
    const updated = { id, ...columns(input) };
    // Mailed before promotion: the members who just moved up get their own mail instead.
    const told = await mailGoing(trx, updated, (m) => changedMail(services.env.BASE_URL, updated, m), { kind: "event.changed", actorId: viewer.id }, now);
    told.push(...(await promote(trx, services.env.BASE_URL, updated, now)));
    return { ok: true as const, value: { id }, told };
  });
  if (!edited.ok) return edited;
  if ("told" in edited) await ringBells(services, edited.told);
  return { ok: true, value: { id } };
}

export async function cancelEvent(services: AppServices, viewer: Viewer, id: number, now = new Date()): Promise<Outcome<{ id: number }>> {
  const { db } = services;
  const event = await findEvent(db, id);
  if (!event) return fail(404, "Event not found");
  const refusal = await manageRefusal(db, viewer, event);
  if (refusal) return fail(403, refusal);
  wrote(tag.events, tag.event(id));
  const told = await db.transaction().execute(async (trx) => {
    await lockKeys(trx, [eventLock(id)]);
    const current = await findEvent(trx, id);
    if (!current || current.cancelled_at) return [];
    await updateEvent(trx, id, { cancelled_at: now.toISOString(), updated_at: now.toISOString() });
    // A cancelled event is no longer found (as it is no longer in the sitemap).
    await indexSearch(trx, [{ kind: "event", id }]);
    return mailGoing(trx, current, (m) => cancelledMail(services.env.BASE_URL, current, m), { kind: "event.cancelled", actorId: viewer.id }, now);
  });
  await ringBells(services, told);
  return { ok: true, value: { id } };
}

export type RsvpAnswer = "going" | "not_going";

/**
 * A member's answer. Going takes a place while one is left, else a place at the end of the
 * waitlist; not going gives a place (or a waitlist place) back, and the first on the waitlist moves
 * up in the same transaction. Answering the same twice changes nothing.
 */
export async function rsvp(
  services: AppServices,
  viewer: Viewer,
  id: number,
  answer: RsvpAnswer,
  now = new Date(),
): Promise<Outcome<{ status: RsvpStatus; waitlistPosition: number | null }>> {
  // Toggling going and not going moves the waitlist and queues mail: the burst limit bounds it.
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  // Who is going shows on the event's page, the places left on its card too.
  wrote(tag.events, tag.event(id));
  let told: string[] = [];
  const answered = await services.db.transaction().execute(async (trx) => {
    await lockKeys(trx, [eventLock(id)]);
    const event = await findEvent(trx, id);
    if (!event) return fail(404, "Event not found");
    if (event.cancelled_at) return fail(409, EVENT_CANCELLED_MESSAGE);
    if (new Date(event.starts_at).getTime() <= now.getTime()) return fail(409, EVENT_STARTED_MESSAGE);
    const current = await findRsvp(trx, id, viewer.id);
    const at = now.toISOString();
    if (answer === "going") {
      if (current && current.status !== "not_going") {
        return { ok: true as const, value: { status: current.status, waitlistPosition: current.waitlist_position } };
      }
      if ((await countGoing(trx, id)) < event.capacity) {
        await upsertRsvp(trx, id, viewer.id, "going", null, at);
        return { ok: true as const, value: { status: "going" as const, waitlistPosition: null } };
      }
      const position = await nextWaitlistPosition(trx, id);
      await upsertRsvp(trx, id, viewer.id, "waitlisted", position, at);
      return { ok: true as const, value: { status: "waitlisted" as const, waitlistPosition: position } };
    }
    await upsertRsvp(trx, id, viewer.id, "not_going", null, at);
    if (current?.status === "going") told = await promote(trx, services.env.BASE_URL, event, now);
    return { ok: true as const, value: { status: "not_going" as const, waitlistPosition: null } };
  });
  await ringBells(services, told);
  return answered;
}
