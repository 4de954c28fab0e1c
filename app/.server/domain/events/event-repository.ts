import type { Db } from "../../db/connect";
import type { EventTable, RsvpStatus } from "../../db/schema";
import type { Insertable, Updateable } from "kysely";
import { AUTHOR_COLUMNS } from "../progression/authors";

/** The columns every read of an event needs, with its host's name and handle. */
const EVENT_COLUMNS = [
  "event.id",
  "event.title",
  "event.description",
  "event.path",
  "event.starts_at",
  "event.ends_at",
  "event.time_zone",
  "event.online_url",
  "event.place",
  "event.capacity",
  "event.host_id",
  "event.created_at",
  "event.updated_at",
  "event.cancelled_at",
  "member.name as host_name",
  "member.handle as host_handle",
  "member.rank as host_rank",
  "member.avatar as host_avatar",
] as const;

export async function findEvent(db: Db, id: number) {
  return db
    .selectFrom("event")
    .innerJoin("member", "member.id", "event.host_id")
    .select([...EVENT_COLUMNS, "event.description_html"])
    .where("event.id", "=", id)
    .executeTakeFirst();
}

export type EventRow = NonNullable<Awaited<ReturnType<typeof findEvent>>>;

/** Events by when they start: upcoming (not yet ended) or past; each with its going count. */
export async function listEvents(
  db: Db,
  options: { endedBefore?: string; endingAfter?: string; includeCancelled: boolean; newestFirst?: boolean; limit: number },
) {
  let query = db
    .selectFrom("event")
    .innerJoin("member", "member.id", "event.host_id")
    .select((eb) => [
      ...EVENT_COLUMNS,
      eb
        .selectFrom("event_rsvp")
        .select((e) => e.fn.countAll<number>().as("n"))
        .whereRef("event_rsvp.event_id", "=", "event.id")
        .where("event_rsvp.status", "=", "going")
        .as("going_count"),
    ]);
  if (options.endingAfter) query = query.where("event.ends_at", ">", options.endingAfter);
  if (options.endedBefore) query = query.where("event.ends_at", "<=", options.endedBefore);
  if (!options.includeCancelled) query = query.where("event.cancelled_at", "is", null);
  return query
    .orderBy("event.starts_at", options.newestFirst ? "desc" : "asc")
    .orderBy("event.id", options.newestFirst ? "desc" : "asc")
    .limit(options.limit)
    .execute();
}

export async function insertEvent(db: Db, values: Insertable<EventTable>): Promise<number | null> {
  const row = await db
    .insertInto("event")
    .values(values)
    .onConflict((oc) => oc.columns(["host_id", "submission_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

export async function findEventIdBySubmission(db: Db, hostId: string, key: string) {
  const row = await db.selectFrom("event").select("id").where("host_id", "=", hostId).where("submission_key", "=", key).executeTakeFirst();
  return row ? Number(row.id) : null;
}

export async function updateEvent(db: Db, id: number, values: Updateable<EventTable>) {
  await db.updateTable("event").set(values).where("id", "=", id).execute();
}

export async function findRsvp(db: Db, eventId: number, memberId: string) {
  return db
    .selectFrom("event_rsvp")
    .select(["status", "waitlist_position"])
    .where("event_id", "=", eventId)
    .where("member_id", "=", memberId)
    .executeTakeFirst();
}

/** Which of these events the member is going to: one query for a whole list. */
export async function eventsGoingTo(db: Db, memberId: string, eventIds: number[]): Promise<Set<number>> {
  if (eventIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("event_rsvp")
    .select("event_id")
    .where("member_id", "=", memberId)
    .where("status", "=", "going")
    .where("event_id", "in", eventIds)
    .execute();
  return new Set(rows.map((r) => Number(r.event_id)));
}

export async function countGoing(db: Db, eventId: number): Promise<number> {
  const row = await db
    .selectFrom("event_rsvp")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("event_id", "=", eventId)
    .where("status", "=", "going")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The next place at the end of the event's waitlist. */
export async function nextWaitlistPosition(db: Db, eventId: number): Promise<number> {
  const row = await db
    .selectFrom("event_rsvp")
    .select((eb) => eb.fn.max("waitlist_position").as("last"))
    .where("event_id", "=", eventId)
    .where("status", "=", "waitlisted")
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

export async function upsertRsvp(db: Db, eventId: number, memberId: string, status: RsvpStatus, waitlistPosition: number | null, at: string) {
  await db
    .insertInto("event_rsvp")
    .values({ event_id: eventId, member_id: memberId, status, waitlist_position: waitlistPosition, updated_at: at })
    .onConflict((oc) => oc.columns(["event_id", "member_id"]).doUpdateSet({ status, waitlist_position: waitlistPosition, updated_at: at }))
    .execute();
}

/** The first `count` members in the waitlist, in order. */
export async function waitlistHead(db: Db, eventId: number, count: number) {
  return db
    .selectFrom("event_rsvp")
    .innerJoin("member", "member.id", "event_rsvp.member_id")
    .select(["event_rsvp.member_id", "member.name", "member.email", "member.time_zone"])
    .where("event_rsvp.event_id", "=", eventId)
    .where("event_rsvp.status", "=", "waitlisted")
    .orderBy("event_rsvp.waitlist_position", "asc")
    .limit(count)
    .execute();
}

/** Members who answered going (or waitlisted), with what a list or a mail needs. */
export async function rsvpMembers(db: Db, eventId: number, status: RsvpStatus) {
  return db
    .selectFrom("event_rsvp")
    .innerJoin("member", "member.id", "event_rsvp.member_id")
    .select(["event_rsvp.member_id as author_id", ...AUTHOR_COLUMNS, "member.email", "member.time_zone", "event_rsvp.waitlist_position"])
    .where("event_rsvp.event_id", "=", eventId)
    .where("event_rsvp.status", "=", status)
    .orderBy("event_rsvp.waitlist_position", "asc")
    .orderBy("event_rsvp.updated_at", "asc")
    .execute();
}

/** Going members of events that start after `from` and no later than `until`, not cancelled. */
export async function goingMembersOfEventsStarting(db: Db, from: string, until: string) {
  return db
    .selectFrom("event_rsvp")
    .innerJoin("event", "event.id", "event_rsvp.event_id")
    .innerJoin("member", "member.id", "event_rsvp.member_id")
    .select([
      "event.id as event_id",
      "event.title",
      "event.starts_at",
      "event.ends_at",
      "event.time_zone",
      "event.online_url",
      "event.place",
      "member.id as member_id",
      "member.name",
      "member.email",
      "member.time_zone as member_time_zone",
    ])
    .where("event_rsvp.status", "=", "going")
    .where("event.cancelled_at", "is", null)
    .where("event.starts_at", ">", from)
    .where("event.starts_at", "<=", until)
    .orderBy("event.starts_at")
    .execute();
}
