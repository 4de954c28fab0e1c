import type { Db } from "../../db/connect";
import type { Executor } from "../../db/executor";
import { sql, type Insertable } from "kysely";
import { replyHourOf } from "../../db/reply-hours";
import type { TopicTable } from "../../db/schema";
import type { SectionId } from "~/lib/domain-values";
import { AUTHOR_COLUMNS } from "../progression/authors";

export async function listTopics(db: Db, section: SectionId, limit = 50) {
  return db
    .selectFrom("topic")
    .select(["id", "section", "title", "description", "discussion_count", "reply_count", "member_count", "last_activity_at"])
    .where("section", "=", section)
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .limit(limit)
    .execute();
}

export async function findTopic(db: Db, section: SectionId, id: string) {
  return db
    .selectFrom("topic")
    .select(["id", "section", "title", "description", "discussion_count", "reply_count", "member_count", "last_activity_at"])
    .where("section", "=", section)
    .where("id", "=", id)
    .executeTakeFirst();
}

function discussionRows(db: Db) {
  // CROSS JOIN keeps discussion the outer loop on SQLite, whose planner (without statistics) would
  // otherwise start from a section's topics and read every discussion in them to find the three
  // featured ones (233 ms at 200,000 discussions); PostgreSQL plans it as the inner join it is.
  return db
    .selectFrom("discussion")
    .crossJoin("topic")
    .whereRef("topic.id", "=", "discussion.topic_id")
    .innerJoin("member", "member.id", "discussion.author_id")
    .select([
      "discussion.id",
      "discussion.title",
      "discussion.slug",
      "discussion.excerpt",
      "discussion.reply_count",
      "discussion.created_at",
      "discussion.last_activity_at",
      "discussion.featured_at",
      "discussion.topic_id",
      "topic.title as topic_title",
      "topic.section",
      "discussion.author_id",
      ...AUTHOR_COLUMNS,
    ])
    .where("discussion.deleted_at", "is", null)
    .where("discussion.hidden_at", "is", null);
}

export const FEATURED_WINDOW_DAYS = 7;

/**
 * Featured discussions (PRODUCT.md §2): those a moderator featured, newest first; remaining places
 * go to the discussions with the most replies in the last seven days.
 */
export async function featuredDiscussions(db: Db, { section, limit = 3, now = new Date() }: { section?: SectionId; limit?: number; now?: Date }) {
  let featuredQuery = discussionRows(db).where("discussion.featured_at", "is not", null);
  if (section) featuredQuery = featuredQuery.where("topic.section", "=", section);
  const featured = await featuredQuery.orderBy("discussion.featured_at", "desc").limit(limit).execute();
  if (featured.length >= limit) return featured;

  const ranked = await busiestSince(db, new Date(now.getTime() - FEATURED_WINDOW_DAYS * 24 * 60 * 60 * 1000), section, limit - featured.length);
  if (ranked.length === 0) return featured;
  const rows = await discussionRows(db)
    .where(
      "discussion.id",
      "in",
      ranked.map((r) => r.discussion_id),
    )
    .execute();
  const order = new Map(ranked.map((r, i) => [r.discussion_id, i]));
  return [...featured, ...rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!)];
}

/**
 * The discussions with the most visible replies written after `since` (not featured, deleted or
 * hidden), most first, ties to the newer discussion: what counting the reply rows gives, read from
 * the hourly buckets (`reply_hour`, ADR 0027). The hours from the one `since` falls in onward are
 * summed, then the replies of that first hour written at or before `since` are taken off, counted
 * from the reply rows of that one hour through their index on created_at.
 */
async function busiestSince(db: Db, since: Date, section: SectionId | undefined, limit: number) {
  const rows = await busiestSinceQuery(db, since, section, limit).execute();
  return rows.map((r) => ({ discussion_id: Number(r.discussion_id), recent: Number(r.recent) }));
}

/** The query busiestSince runs, for a test to read its plan. */
export function busiestSinceQuery(db: Db, since: Date, section: SectionId | undefined, limit: number) {
  const fromHour = replyHourOf(since);
  let buckets = db.selectFrom("reply_hour").select(["discussion_id", "replies as n"]).where("hour", ">=", fromHour);
  if (section) buckets = buckets.where("section", "=", section);
  // Rows of other sections only ever subtract: their sums stay at or below zero and are dropped.
  const tooEarly = db
    .selectFrom("reply")
    .select(["discussion_id", sql<number>`-1`.as("n")])
    .where("created_at", ">=", `${fromHour}:00:00.000Z`)
    .where("created_at", "<=", since.toISOString())
    .where("deleted_at", "is", null)
    .where("hidden_at", "is", null);
  // CROSS JOIN: the few recent buckets lead and each finds its discussion by key; as an inner join
  // SQLite walked every unfeatured discussion (the featured_at index) probing the buckets.
  return db
    .selectFrom(buckets.unionAll(tooEarly).as("recent"))
    .crossJoin("discussion")
    .whereRef("discussion.id", "=", "recent.discussion_id")
    .select(["recent.discussion_id", (eb) => eb.fn.sum<number>("recent.n").as("recent")])
    .where("discussion.featured_at", "is", null)
    .where("discussion.deleted_at", "is", null)
    .where("discussion.hidden_at", "is", null)
    .groupBy("recent.discussion_id")
    .having((eb) => eb.fn.sum("recent.n"), ">", 0)
    .orderBy("recent", "desc")
    .orderBy("recent.discussion_id", "desc")
    .limit(limit);
}

/**
 * Moves the hourly bucket of a reply written at `createdAt` by `delta` (a reply posted, deleted,
 * hidden or restored), in the caller's transaction.
 */
export async function moveReplyHour(db: Db, discussionId: number, createdAt: string | Date, delta: number) {
  if (delta === 0) return;
  await db
    .insertInto("reply_hour")
    .columns(["discussion_id", "section", "hour", "replies"])
    .expression(
      db
        .selectFrom("discussion")
        .innerJoin("topic", "topic.id", "discussion.topic_id")
        // Values, not literals: the statement's text stays one (PostgreSQL runs it by name, ADR 0079).
        .select([
          "discussion.id",
          "topic.section",
          sql<string>`cast(${replyHourOf(createdAt)} as text)`.as("hour"),
          sql<number>`cast(${delta} as integer)`.as("replies"),
        ])
        .where("discussion.id", "=", discussionId),
    )
    .onConflict((oc) => oc.columns(["discussion_id", "hour"]).doUpdateSet((eb) => ({ replies: eb("reply_hour.replies", "+", eb.ref("excluded.replies")) })))
    .execute();
}

/**
 * Inserts the topic unless its id is taken; false when it is. One statement decides, so two members
 * creating topics of one title at the same moment get two ids: a check before the insert let both
 * through to a unique violation on PostgreSQL (SQLite's writers took turns).
 */
export async function insertTopicIfFree(db: Db, topic: Insertable<TopicTable>) {
  const inserted = await db
    .insertInto("topic")
    .values(topic)
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Adds a member to a topic; false when they were in it already. */
export async function addTopicMember(db: Db, topicId: string, memberId: string, at: string) {
  const inserted = await db
    .insertInto("topic_member")
    .values({ topic_id: topicId, member_id: memberId, joined_at: at })
    .onConflict((oc) => oc.columns(["topic_id", "member_id"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Takes a member out of a topic; false when they were not in it. */
export async function removeTopicMember(db: Db, topicId: string, memberId: string) {
  const removed = await db.deleteFrom("topic_member").where("topic_id", "=", topicId).where("member_id", "=", memberId).executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

export async function moveTopicMembers(db: Db, topicId: string, delta: number) {
  await db
    .updateTable("topic")
    .set((eb) => ({ member_count: eb("member_count", "+", delta) }))
    .where("id", "=", topicId)
    .execute();
}

/** The topic a discussion is in (its section and title), for writes that must name the section. */
export async function topicOfDiscussion(db: Db, topicId: string) {
  return db.selectFrom("topic").select(["id", "section", "title"]).where("id", "=", topicId).executeTakeFirstOrThrow();
}

/** Where a forum post shows: the topic, found by its id or by a discussion in it, and its section. */
export async function forumPlace(
  db: Executor,
  of: { topicId: string } | { discussionId: number },
): Promise<{ topicId: string; section: SectionId } | undefined> {
  const row =
    "topicId" in of
      ? await db.selectFrom("topic").select(["topic.id", "topic.section"]).where("topic.id", "=", of.topicId).executeTakeFirst()
      : await db
          .selectFrom("discussion")
          .innerJoin("topic", "topic.id", "discussion.topic_id")
          .select(["topic.id", "topic.section"])
          .where("discussion.id", "=", of.discussionId)
          .executeTakeFirst();
  return row ? { topicId: row.id, section: row.section } : undefined;
}
