import type { Executor } from "../../db/executor";
import { discussionsWithPlace } from "../forum/forum-repository";

// What the dashboard reads about its own member: a fixed number of queries, whatever they wrote.

/**
 * The four first-step facts in one query. A step counts once done, even if the post was later
 * deleted or hidden: the checklist is about having taken the step, and a list that came back after
 * a member removed their introduction would ask them to do again what they did.
 */
export async function firstStepFacts(db: Executor, memberId: string) {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom("discussion").select("id").where("author_id", "=", memberId).limit(1).as("discussion"),
      eb.selectFrom("reply").select("id").where("author_id", "=", memberId).limit(1).as("reply"),
      eb.selectFrom("challenge_attempt").select("id").where("member_id", "=", memberId).limit(1).as("attempt"),
      eb.selectFrom("question").select("id").where("author_id", "=", memberId).limit(1).as("question"),
      eb.selectFrom("answer").select("id").where("author_id", "=", memberId).limit(1).as("answer"),
      eb.selectFrom("creation").select("id").where("author_id", "=", memberId).limit(1).as("creation"),
    ])
    .executeTakeFirstOrThrow();
  return {
    forum: row.discussion != null || row.reply != null,
    challenge: row.attempt != null,
    council: row.question != null || row.answer != null,
    forge: row.creation != null,
  };
}

/** Events the member is going to that have not ended yet (as the events page counts upcoming), soonest first. */
export async function upcomingEventsGoing(db: Executor, memberId: string, now: string, limit: number) {
  return db
    .selectFrom("event_rsvp")
    .innerJoin("event", "event.id", "event_rsvp.event_id")
    .select(["event.id", "event.title", "event.path", "event.starts_at", "event.ends_at", "event.time_zone"])
    .where("event_rsvp.member_id", "=", memberId)
    .where("event_rsvp.status", "=", "going")
    .where("event.cancelled_at", "is", null)
    .where("event.ends_at", ">", now)
    .orderBy("event.starts_at")
    .orderBy("event.id")
    .limit(limit)
    .execute();
}

/** These discussions as the dashboard lists them (those that show), most recent activity first. */
export async function showingDiscussions(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return discussionsWithPlace(db)
    .select(["discussion.reply_count", "discussion.last_activity_at"])
    .where("discussion.id", "in", ids)
    .where("discussion.hidden_at", "is", null)
    .where("discussion.deleted_at", "is", null)
    .orderBy("discussion.last_activity_at", "desc")
    .orderBy("discussion.id", "desc")
    .execute();
}
