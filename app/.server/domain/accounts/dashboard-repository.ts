import type { Db } from "../../db/connect";

// What the dashboard reads about its own member: a fixed number of queries, whatever they wrote.

type Executor = Pick<Db, "selectFrom" | "selectNoFrom">;

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

// The member's own recent posts, one query per kind (five in all), merged by the read model. Only
// what others can read too: a deleted or hidden post would link to a page that is not there.

export async function recentDiscussionsOf(db: Executor, memberId: string, limit: number) {
  return db
    .selectFrom("discussion")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["discussion.id", "discussion.title", "discussion.slug", "discussion.topic_id", "topic.section", "discussion.created_at"])
    .where("discussion.author_id", "=", memberId)
    .where("discussion.deleted_at", "is", null)
    .where("discussion.hidden_at", "is", null)
    .orderBy("discussion.created_at", "desc")
    .orderBy("discussion.id", "desc")
    .limit(limit)
    .execute();
}

/** Replies, each with its discussion's title and place (a reply has no title of its own). */
export async function recentRepliesOf(db: Executor, memberId: string, limit: number) {
  return db
    .selectFrom("reply")
    .innerJoin("discussion", "discussion.id", "reply.discussion_id")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select([
      "reply.id",
      "reply.created_at",
      "discussion.id as discussion_id",
      "discussion.title",
      "discussion.slug",
      "discussion.topic_id",
      "topic.section",
    ])
    .where("reply.author_id", "=", memberId)
    .where("reply.deleted_at", "is", null)
    .where("reply.hidden_at", "is", null)
    .where("discussion.deleted_at", "is", null)
    .where("discussion.hidden_at", "is", null)
    .orderBy("reply.created_at", "desc")
    .orderBy("reply.id", "desc")
    .limit(limit)
    .execute();
}

export async function recentQuestionsOf(db: Executor, memberId: string, limit: number) {
  return db
    .selectFrom("question")
    .select(["id", "title", "created_at"])
    .where("author_id", "=", memberId)
    .where("deleted_at", "is", null)
    .where("hidden_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export async function recentAnswersOf(db: Executor, memberId: string, limit: number) {
  return db
    .selectFrom("answer")
    .innerJoin("question", "question.id", "answer.question_id")
    .select(["answer.id", "answer.question_id", "question.title", "answer.created_at"])
    .where("answer.author_id", "=", memberId)
    .where("answer.deleted_at", "is", null)
    .where("answer.hidden_at", "is", null)
    .where("question.deleted_at", "is", null)
    .where("question.hidden_at", "is", null)
    .orderBy("answer.created_at", "desc")
    .orderBy("answer.id", "desc")
    .limit(limit)
    .execute();
}

export async function recentCreationsOf(db: Executor, memberId: string, limit: number) {
  return db
    .selectFrom("creation")
    .select(["id", "title", "created_at"])
    .where("author_id", "=", memberId)
    .where("deleted_at", "is", null)
    .where("hidden_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
