import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { Db } from "../../db/connect";
import type { Database } from "../../db/schema";
import { discussionsWithPlace, repliesWithPlace } from "../forum/forum-repository";
import { publiclyShown } from "../posts/post-visibility";

// What a profile and the member's own dashboard list: posts anyone can read, so nothing deleted and
// nothing a moderator hid (a removed post would link to a page that is not there).

type Post = "discussion" | "reply" | "question" | "answer" | "creation" | "creation_comment";

/** Where a page of one kind of the member's posts ends: the last one's time and id (keyset, issue 30). */
export interface ContributionCursor {
  at: string;
  id: number;
}

function authoredBy(post: Post, memberId: string) {
  return sql<boolean>`${sql.ref(`${post}.author_id`)} = ${memberId}`;
}

/** The member's posts of this kind that show, newest first; older than `before` when given. */
function newestBy<TB extends keyof Database, O>(
  query: SelectQueryBuilder<Database, TB, O>,
  post: Post,
  memberId: string,
  limit: number,
  before: ContributionCursor | null = null,
) {
  const at = sql.ref(`${post}.created_at`);
  const id = sql.ref(`${post}.id`);
  return query
    .where(authoredBy(post, memberId))
    .where(publiclyShown(post))
    .$if(before !== null, (q) => q.where(sql<boolean>`(${at} < ${before!.at} or (${at} = ${before!.at} and ${id} < ${before!.id}))`))
    .orderBy(sql.ref(`${post}.created_at`), "desc")
    .orderBy(sql.ref(`${post}.id`), "desc")
    .limit(limit)
    .execute();
}

export async function recentDiscussionsBy(db: Db, memberId: string, limit: number, before: ContributionCursor | null = null) {
  const discussions = discussionsWithPlace(db).select("discussion.created_at");
  return newestBy(discussions, "discussion", memberId, limit, before);
}

/** Replies, each with its discussion's title and place (a reply has no title of its own). */
export async function recentRepliesBy(db: Db, memberId: string, limit: number, before: ContributionCursor | null = null) {
  const replies = repliesWithPlace(db).select("reply.created_at").where(publiclyShown("discussion"));
  return newestBy(replies, "reply", memberId, limit, before);
}

export async function recentQuestionsBy(db: Db, memberId: string, limit: number, before: ContributionCursor | null = null) {
  return newestBy(db.selectFrom("question").select(["id", "title", "created_at"]), "question", memberId, limit, before);
}

/** Answers, each with its question's title (an answer has none of its own); never under a removed question. */
export async function recentAnswersBy(db: Db, memberId: string, limit: number, before: ContributionCursor | null = null) {
  const answers = db
    .selectFrom("answer")
    .innerJoin("question", "question.id", "answer.question_id")
    .select(["answer.id", "answer.question_id", "question.title as question_title", "answer.created_at"])
    .where(publiclyShown("question"));
  return newestBy(answers, "answer", memberId, limit, before);
}

export async function recentCreationsBy(db: Db, memberId: string, limit: number, before: ContributionCursor | null = null) {
  return newestBy(db.selectFrom("creation").select(["id", "title", "created_at"]), "creation", memberId, limit, before);
}

/** Comments, each with its creation's title; never under a removed creation. */
export async function recentCommentsBy(db: Db, memberId: string, limit: number, before: ContributionCursor | null = null) {
  const comments = db
    .selectFrom("creation_comment")
    .innerJoin("creation", "creation.id", "creation_comment.creation_id")
    .select(["creation_comment.id", "creation_comment.creation_id", "creation.title", "creation_comment.created_at"])
    .where(publiclyShown("creation"));
  return newestBy(comments, "creation_comment", memberId, limit, before);
}

/** How many of the member's posts of this kind show. */
function countBy(eb: ExpressionBuilder<Database, never>, post: Post, memberId: string) {
  return eb
    .selectFrom(post)
    .select((e) => e.fn.countAll<number>().as("n"))
    .where(authoredBy(post, memberId))
    .where(publiclyShown(post));
}

/** All six counts in one query; a reply, answer or comment under a removed post does not count. */
export async function countContributions(db: Db, memberId: string) {
  const row = await db
    .selectNoFrom((eb) => [
      countBy(eb, "discussion", memberId).as("discussions"),
      countBy(eb, "reply", memberId).innerJoin("discussion", "discussion.id", "reply.discussion_id").where(publiclyShown("discussion")).as("replies"),
      countBy(eb, "question", memberId).as("questions"),
      countBy(eb, "answer", memberId).innerJoin("question", "question.id", "answer.question_id").where(publiclyShown("question")).as("answers"),
      countBy(eb, "creation", memberId).as("creations"),
      countBy(eb, "creation_comment", memberId)
        .innerJoin("creation", "creation.id", "creation_comment.creation_id")
        .where(publiclyShown("creation"))
        .as("comments"),
    ])
    .executeTakeFirstOrThrow();
  return {
    discussions: Number(row.discussions ?? 0),
    questions: Number(row.questions ?? 0),
    answers: Number(row.answers ?? 0),
    creations: Number(row.creations ?? 0),
    replies: Number(row.replies ?? 0),
    comments: Number(row.comments ?? 0),
  };
}
