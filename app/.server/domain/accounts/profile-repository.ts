import type { Db } from "../../db/connect";

// What a profile and the member's own dashboard list: posts anyone can read, so nothing deleted and
// nothing a moderator hid (a removed post would link to a page that is not there).

export async function recentDiscussionsBy(db: Db, memberId: string, limit: number) {
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
export async function recentRepliesBy(db: Db, memberId: string, limit: number) {
  return db
    .selectFrom("reply")
    .innerJoin("discussion", "discussion.id", "reply.discussion_id")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["reply.id", "reply.created_at", "discussion.id as discussion_id", "discussion.title", "discussion.slug", "discussion.topic_id", "topic.section"])
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

export async function recentQuestionsBy(db: Db, memberId: string, limit: number) {
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

/** Answers, each with its question's title (an answer has none of its own); never under a removed question. */
export async function recentAnswersBy(db: Db, memberId: string, limit: number) {
  return db
    .selectFrom("answer")
    .innerJoin("question", "question.id", "answer.question_id")
    .select(["answer.id", "answer.question_id", "question.title as question_title", "answer.created_at"])
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

export async function recentCreationsBy(db: Db, memberId: string, limit: number) {
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

/** All four counts in one query. */
export async function countContributions(db: Db, memberId: string) {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom("discussion")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("author_id", "=", memberId)
        .where("deleted_at", "is", null)
        .where("hidden_at", "is", null)
        .as("discussions"),
      eb
        .selectFrom("question")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("author_id", "=", memberId)
        .where("deleted_at", "is", null)
        .where("hidden_at", "is", null)
        .as("questions"),
      eb
        .selectFrom("answer")
        .innerJoin("question", "question.id", "answer.question_id")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("answer.author_id", "=", memberId)
        .where("answer.deleted_at", "is", null)
        .where("answer.hidden_at", "is", null)
        .where("question.deleted_at", "is", null)
        .where("question.hidden_at", "is", null)
        .as("answers"),
      eb
        .selectFrom("creation")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("author_id", "=", memberId)
        .where("deleted_at", "is", null)
        .where("hidden_at", "is", null)
        .as("creations"),
    ])
    .executeTakeFirstOrThrow();
  return {
    discussions: Number(row.discussions ?? 0),
    questions: Number(row.questions ?? 0),
    answers: Number(row.answers ?? 0),
    creations: Number(row.creations ?? 0),
  };
}
