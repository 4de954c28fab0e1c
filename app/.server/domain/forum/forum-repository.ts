import type { Db } from "../../db/connect";
import { slicePage, walksForward, type ActivityCursor, type PageRequest } from "../../pagination";

type Executor = Pick<Db, "selectFrom" | "insertInto" | "updateTable" | "deleteFrom">;

export const DISCUSSIONS_PER_PAGE = 20;
export const REPLIES_PER_PAGE = 50;

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
      "member.name as author_name",
      "member.handle as author_handle",
      "member.rank as author_rank",
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
 * (last_activity_at, id): the same cost for the first page as for the last one.
 */
export async function discussionPage(
  db: Executor,
  topicId: string,
  request: PageRequest<ActivityCursor>,
  { includeHidden = false, limit = DISCUSSIONS_PER_PAGE } = {},
) {
  let query = discussionSelect(db).where("discussion.topic_id", "=", topicId);
  if (!includeHidden) query = query.where("discussion.hidden_at", "is", null);
  const newestFirst = walksForward(request);
  if (request.kind === "after" || request.kind === "before") {
    const { at, id } = request.cursor;
    const op = request.kind === "after" ? "<" : ">";
    query = query.where((eb) =>
      eb.or([
        eb("discussion.last_activity_at", op, at),
        eb.and([eb("discussion.last_activity_at", "=", at), eb("discussion.id", op, id)]),
      ]),
    );
  }
  const direction = newestFirst ? "desc" : "asc";
  // One extra row says whether there is more beyond this page.
  const rows = await query
    .orderBy("discussion.last_activity_at", direction)
    .orderBy("discussion.id", direction)
    .limit(limit + 1)
    .execute();
  const page = slicePage(rows, limit, request);
  return { rows: page.rows, hasNewer: page.hasPrevious, hasOlder: page.hasNext };
}

export function replySelect(db: Executor) {
  return db
    .selectFrom("reply")
    .innerJoin("member", "member.id", "reply.author_id")
    .select([
      "reply.id",
      "reply.discussion_id",
      "reply.body",
      "reply.body_html",
      "reply.created_at",
      "reply.edited_at",
      "reply.deleted_at",
      "reply.hidden_at",
      "reply.author_id",
      "member.name as author_name",
      "member.handle as author_handle",
      "member.rank as author_rank",
    ]);
}

export async function findReply(db: Executor, id: number) {
  return replySelect(db).where("reply.id", "=", id).executeTakeFirst();
}

/** One page of replies, oldest first, by keyset on id. */
export async function replyPage(
  db: Executor,
  discussionId: number,
  request: PageRequest<number>,
  { includeHidden = false, limit = REPLIES_PER_PAGE } = {},
) {
  let query = replySelect(db).where("reply.discussion_id", "=", discussionId);
  if (!includeHidden) query = query.where("reply.hidden_at", "is", null);
  const oldestFirst = walksForward(request);
  if (request.kind === "after") query = query.where("reply.id", ">", request.cursor);
  if (request.kind === "before") query = query.where("reply.id", "<", request.cursor);
  const rows = await query
    .orderBy("reply.id", oldestFirst ? "asc" : "desc")
    .limit(limit + 1)
    .execute();
  const page = slicePage(rows, limit, request);
  return { rows: page.rows, hasEarlier: page.hasPrevious, hasLater: page.hasNext };
}

export async function isTopicMember(db: Executor, topicId: string, memberId: string) {
  const row = await db
    .selectFrom("topic_member")
    .select("member_id")
    .where("topic_id", "=", topicId)
    .where("member_id", "=", memberId)
    .executeTakeFirst();
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
  await db.updateTable("discussion").set({ [mark]: at }).where("id", "=", id).execute();
}
