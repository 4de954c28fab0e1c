import { sql } from "kysely";
import type { Executor } from "../../db/executor";
import type { ActivityCursor } from "../../pagination";
import { aboutPosts, type PostRef } from "../posts/post-places";

/** Adds the bookmark unless the member has it already; returns whether it was added. */
export async function insertBookmark(db: Executor, memberId: string, post: PostRef, at: string) {
  const inserted = await db
    .insertInto("bookmark")
    .values({ member_id: memberId, kind: post.kind, post_id: post.id, created_at: at, remind_at: null })
    .onConflict((oc) => oc.columns(["member_id", "kind", "post_id"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteBookmark(db: Executor, memberId: string, post: PostRef) {
  await db.deleteFrom("bookmark").where("member_id", "=", memberId).where("kind", "=", post.kind).where("post_id", "=", post.id).execute();
}

export async function findBookmark(db: Executor, memberId: string, id: number) {
  return db.selectFrom("bookmark").selectAll().where("member_id", "=", memberId).where("id", "=", id).executeTakeFirst();
}

export async function updateBookmark(db: Executor, memberId: string, id: number, change: { note: string; remind_at: string | null }) {
  await db
    .updateTable("bookmark")
    .set({ ...change, reminded_at: null })
    .where("member_id", "=", memberId)
    .where("id", "=", id)
    .execute();
}

export async function countBookmarks(db: Executor, memberId: string) {
  const row = await db
    .selectFrom("bookmark")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("member_id", "=", memberId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The member's bookmarks, newest first, older than `before` when given. */
export async function bookmarksOf(db: Executor, memberId: string, limit: number, before: ActivityCursor | null) {
  return db
    .selectFrom("bookmark")
    .selectAll()
    .where("member_id", "=", memberId)
    .$if(before !== null, (q) => q.where(sql<boolean>`(created_at < ${before!.at} or (created_at = ${before!.at} and id < ${before!.id}))`))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** Which of these posts the member bookmarked. */
export async function bookmarkedAmong(db: Executor, memberId: string, posts: readonly PostRef[]) {
  if (posts.length === 0) return [];
  return db.selectFrom("bookmark").select(["kind", "post_id"]).where("member_id", "=", memberId).where(aboutPosts(posts)).execute();
}

/** Reminders due now and not yet sent, oldest first. */
export async function dueBookmarkReminders(db: Executor, now: string, limit: number) {
  return db
    .selectFrom("bookmark")
    .select(["id", "member_id", "kind", "post_id"])
    .where("reminded_at", "is", null)
    .where("remind_at", "<=", now)
    .orderBy("remind_at")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/** Marks a reminder sent, unless another tick did first; returns whether this one did. */
export async function claimBookmarkReminder(db: Executor, id: number, now: string) {
  const updated = await db.updateTable("bookmark").set({ reminded_at: now }).where("id", "=", id).where("reminded_at", "is", null).executeTakeFirst();
  return Number(updated.numUpdatedRows ?? 0) > 0;
}
