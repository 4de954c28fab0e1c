import { engineOf } from "../../db/connect";
import type { Executor } from "../../db/executor";
import { MAX_ID } from "~/lib/params";
import { activityPage, slicePage, walksForward, type ActivityCursor, type PageRequest } from "../../pagination";
import { AUTHOR_COLUMNS } from "../progression/authors";

export const DISCUSSIONS_PER_PAGE = 20;
export const REPLIES_PER_PAGE = 50;

/**
 * Discussions with their title and what their address is made of (discussionPath: the topic's
 * section, the topic, the id and slug), for the lists and notices that link to them.
 */
export function discussionsWithPlace(db: Executor) {
  return db
    .selectFrom("discussion")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["discussion.id", "discussion.title", "discussion.slug", "discussion.topic_id", "topic.section"]);
}

/** Replies with their discussion's title and what its address is made of, to link to the reply (replyPath). */
export function repliesWithPlace(db: Executor) {
  return db
    .selectFrom("reply")
    .innerJoin("discussion", "discussion.id", "reply.discussion_id")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["reply.id", "discussion.id as discussion_id", "discussion.title", "discussion.slug", "discussion.topic_id", "topic.section"]);
}

export function discussionSelect(db: Executor) {
  return db
    .selectFrom("discussion")
    .innerJoin("member", "member.id", "discussion.author_id")
    .select([
      "discussion.id",
      "discussion.topic_id",
      "discussion.title",
      "discussion.slug",
      "discussion.body",
      "discussion.body_html",
      "discussion.excerpt",
      "discussion.reply_count",
      "discussion.created_at",
      "discussion.edited_at",
      "discussion.deleted_at",
      "discussion.hidden_at",
      "discussion.locked_at",
      "discussion.featured_at",
      "discussion.last_activity_at",
      "discussion.author_id",
      ...AUTHOR_COLUMNS,
    ]);
}

export async function findDiscussion(db: Executor, id: number) {
  return discussionSelect(db).where("discussion.id", "=", id).executeTakeFirst();
}

/** A discussion with its topic's section and title (its page's breadcrumb and address), in one query. */
export async function findDiscussionWithTopic(db: Executor, id: number) {
  return discussionSelect(db)
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["topic.section as topic_section", "topic.title as topic_title"])
    .where("discussion.id", "=", id)
    .executeTakeFirst();
}

/**
 * One page of a topic's discussions, most recent activity first, by keyset on
 * (last_activity_at, id): the same cost for the first page as for the last one. The ORDER BY is
 * discussion_topic_activity_idx read forwards or backwards, so no page sorts anything.
 */
export async function discussionPage(
  db: Executor,
  topicId: string,
  request: PageRequest<ActivityCursor>,
  { includeHidden = false, limit = DISCUSSIONS_PER_PAGE } = {},
) {
  let query = discussionSelect(db).where("discussion.topic_id", "=", topicId);
  if (!includeHidden) query = query.where("discussion.hidden_at", "is", null);
  // One index range on (topic_id, last_activity_at, id).
  return activityPage(query, ["discussion.last_activity_at", "discussion.id"], request, limit);
}

const REPLY_COLUMNS = [
  "reply.id",
  "reply.discussion_id",
  "reply.body",
  "reply.body_html",
  "reply.created_at",
  "reply.edited_at",
  "reply.deleted_at",
  "reply.hidden_at",
  "reply.reply_to_id",
  "reply.author_id",
  ...AUTHOR_COLUMNS,
] as const;

export function replySelect(db: Executor) {
  return db.selectFrom("reply").innerJoin("member", "member.id", "reply.author_id").select(REPLY_COLUMNS);
}

export async function findReply(db: Executor, id: number) {
  return replySelect(db).where("reply.id", "=", id).executeTakeFirst();
}

/**
 * One page of replies, oldest first, by keyset on id within the discussion: a range of
 * reply_discussion_idx (discussion_id, id) on both engines, written the way each one plans it
 * (ADR 0028). SQLite: `discussion_id = ? AND id > ?` is already that range (id is the rowid).
 * PostgreSQL: with `discussion_id = ?` its planner drops discussion_id from the ORDER BY (it is
 * constant), so the primary key on id sorts just as well, and for a big discussion it often picks
 * that, filtering out every reply written to other discussions in between (5,000 extra rows on a
 * last page in keyset-plans.test.ts; its statistics cannot see that a discussion's ids cluster).
 * Bounds written only as row comparisons on (discussion_id, id) keep discussion_id in the order,
 * which only reply_discussion_idx gives; ids run from 1 to MAX_ID, so 0 and MAX_ID bound it all.
 * PostgreSQL estimates such bounds at one row, and with a join in the same query it then hashes
 * every reply of the discussion and sorts them (5 s for a million): so the page is cut in a
 * subquery of reply alone, and only its rows meet member.
 */
export async function replyPage(db: Executor, discussionId: number, request: PageRequest<number>, { includeHidden = false, limit = REPLIES_PER_PAGE } = {}) {
  const direction = walksForward(request) ? "asc" : "desc";
  const after = request.kind === "after" ? request.cursor : 0;
  // Below the cursor, or up to the largest id there can be (MAX_ID + 1 would not fit PostgreSQL's integer).
  const [below, before] = request.kind === "before" ? (["<", request.cursor] as const) : (["<=", MAX_ID] as const);
  let rows;
  if (engineOf(db) === "postgres") {
    let page = db
      .selectFrom("reply")
      .selectAll("reply")
      .where((eb) => eb(eb.refTuple("reply.discussion_id", "reply.id"), ">", eb.tuple(discussionId, after)))
      .where((eb) => eb(eb.refTuple("reply.discussion_id", "reply.id"), below, eb.tuple(discussionId, before)));
    if (!includeHidden) page = page.where("reply.hidden_at", "is", null);
    rows = await db
      .selectFrom(
        page
          .orderBy("reply.discussion_id", direction)
          .orderBy("reply.id", direction)
          .limit(limit + 1)
          .as("reply"),
      )
      .innerJoin("member", "member.id", "reply.author_id")
      .select(REPLY_COLUMNS)
      .orderBy("reply.id", direction)
      .execute();
  } else {
    let query = replySelect(db).where("reply.discussion_id", "=", discussionId).where("reply.id", ">", after).where("reply.id", below, before);
    if (!includeHidden) query = query.where("reply.hidden_at", "is", null);
    rows = await query
      .orderBy("reply.id", direction)
      .limit(limit + 1)
      .execute();
  }
  const page = slicePage(rows, limit, request);
  return { rows: page.rows, hasEarlier: page.hasPrevious, hasLater: page.hasNext };
}

/** Who wrote these replies, for the "in reply to" lines of the replies that answer them (issue 32); one query. */
export async function replyAuthorsOf(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("reply")
    .innerJoin("member", "member.id", "reply.author_id")
    .select(["reply.id", "reply.hidden_at", "reply.author_id", "member.name"])
    .where("reply.id", "in", [...ids])
    .execute();
}

export async function isTopicMember(db: Executor, topicId: string, memberId: string) {
  const row = await db.selectFrom("topic_member").select("member_id").where("topic_id", "=", topicId).where("member_id", "=", memberId).executeTakeFirst();
  return row !== undefined;
}

/** The discussion's slug, for the address of a post made by a double submit. */
export async function discussionRef(db: Executor, id: number) {
  return db.selectFrom("discussion").select(["id", "slug"]).where("id", "=", id).executeTakeFirstOrThrow();
}

/** Whether the discussion is locked now (read inside the reply's transaction). */
export async function isLocked(db: Executor, id: number) {
  const row = await db.selectFrom("discussion").select("locked_at").where("id", "=", id).executeTakeFirstOrThrow();
  return row.locked_at !== null;
}

/** Sets or clears a moderator's mark on a discussion (locked, featured). */
export async function setDiscussionMark(db: Executor, id: number, mark: "locked_at" | "featured_at", at: string | null) {
  await db
    .updateTable("discussion")
    .set({ [mark]: at })
    .where("id", "=", id)
    .execute();
}
