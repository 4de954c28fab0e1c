import type { Executor } from "../../db/executor";
import { latestMarker } from "../posts/mark-repository";
import { aboutPosts, type PostRef } from "../posts/post-places";
import { isReaction, noReactions, type Reaction, type ReactionCounts } from "~/lib/reactions";

/** Records a reaction; false when this member gave it already (the primary key lets one in). */
export async function insertReaction(db: Executor, post: PostRef, memberId: string, reaction: Reaction, at: string) {
  const inserted = await db
    .insertInto("reaction")
    .values({ kind: post.kind, post_id: post.id, member_id: memberId, reaction, created_at: at })
    .onConflict((oc) => oc.columns(["kind", "post_id", "member_id", "reaction"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function hasReacted(db: Executor, post: PostRef, memberId: string, reaction: Reaction) {
  const row = await db
    .selectFrom("reaction")
    .select("member_id")
    .where("kind", "=", post.kind)
    .where("post_id", "=", post.id)
    .where("member_id", "=", memberId)
    .where("reaction", "=", reaction)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many reactions this member has given this post (of the four). */
export async function reactionsOfMemberOn(db: Executor, post: PostRef, memberId: string) {
  const row = await db
    .selectFrom("reaction")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("kind", "=", post.kind)
    .where("post_id", "=", post.id)
    .where("member_id", "=", memberId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Takes a reaction back; when it was given, or null when there was none. */
export async function deleteReaction(db: Executor, post: PostRef, memberId: string, reaction: Reaction) {
  const removed = await db
    .deleteFrom("reaction")
    .where("kind", "=", post.kind)
    .where("post_id", "=", post.id)
    .where("member_id", "=", memberId)
    .where("reaction", "=", reaction)
    .returning("created_at")
    .executeTakeFirst();
  return removed?.created_at ?? null;
}

/** Moves the kept count by `delta` (an upsert: the first reaction of a kind makes its row). */
export async function moveReactionCount(db: Executor, post: PostRef, reaction: Reaction, delta: 1 | -1) {
  await db
    .insertInto("reaction_count")
    .values({ kind: post.kind, post_id: post.id, reaction, count: Math.max(delta, 0) })
    .onConflict((oc) => oc.columns(["kind", "post_id", "reaction"]).doUpdateSet((eb) => ({ count: eb("reaction_count.count", "+", delta) })))
    .execute();
}

/**
 * The kept counts of these posts, by `postKey`, every reaction present: one query for any number of
 * posts of any kinds (a page's discussion and its replies), never one per post.
 */
export async function reactionCounts(db: Executor, refs: readonly PostRef[]): Promise<Map<string, ReactionCounts>> {
  const found = new Map<string, ReactionCounts>();
  if (refs.length === 0) return found;
  const rows = await db.selectFrom("reaction_count").select(["kind", "post_id", "reaction", "count"]).where(aboutPosts(refs)).where("count", ">", 0).execute();
  for (const row of rows) {
    if (!isReaction(row.reaction)) continue;
    const key = `${row.kind}:${row.post_id}`;
    const counts = found.get(key) ?? noReactions();
    counts[row.reaction] = Number(row.count);
    found.set(key, counts);
  }
  return found;
}

/** Which reactions this member gave these posts, as `<kind>:<id>:<reaction>` keys; one query. */
export async function reactionsBy(db: Executor, memberId: string, refs: readonly PostRef[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const rows = await db.selectFrom("reaction").select(["kind", "post_id", "reaction"]).where("member_id", "=", memberId).where(aboutPosts(refs)).execute();
  return new Set(rows.map((r) => `${r.kind}:${r.post_id}:${r.reaction}`));
}

/** The member who reacted to the post last since `since` (all when null), other than `except`. */
export function latestReactor(db: Executor, post: PostRef, except: string, since: string | null) {
  return latestMarker(db, "reaction", { kind: post.kind, post_id: post.id }, except, since);
}

/** Who gave each reaction to a post, earliest first, up to `limit` members per reaction. */
export async function reactorsOf(db: Executor, post: PostRef, limit: number) {
  return db
    .selectFrom("reaction")
    .innerJoin("member", "member.id", "reaction.member_id")
    .select(["reaction.reaction", "reaction.created_at", "member.name", "member.handle"])
    .where("reaction.kind", "=", post.kind)
    .where("reaction.post_id", "=", post.id)
    .orderBy("reaction.created_at", "asc")
    .orderBy("member.handle", "asc")
    .limit(limit)
    .execute();
}
