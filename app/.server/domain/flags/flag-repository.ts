import type { Executor } from "../../db/executor";
import { aboutPosts, type PostRef } from "../posts/post-places";
import type { FlagReason, ReviewState } from "~/lib/flags";

/** Records a flag; its id, or null when this member flagged the post already (the unique key lets one in). */
export async function insertFlag(
  db: Executor,
  row: { post: PostRef; flaggerId: string; reason: FlagReason; note: string; weight: number; at: string },
): Promise<number | null> {
  const inserted = await db
    .insertInto("flag")
    .values({
      kind: row.post.kind,
      post_id: row.post.id,
      flagger_id: row.flaggerId,
      reason: row.reason,
      note: row.note,
      weight: row.weight,
      created_at: row.at,
    })
    .onConflict((oc) => oc.columns(["kind", "post_id", "flagger_id"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted ? Number(inserted.id) : null;
}

export async function hasFlagged(db: Executor, memberId: string, post: PostRef) {
  const row = await db
    .selectFrom("flag")
    .select("id")
    .where("kind", "=", post.kind)
    .where("post_id", "=", post.id)
    .where("flagger_id", "=", memberId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The flags on a post still waiting for a decision: how many, and what they weigh together. */
export async function pendingFlagsOn(db: Executor, post: PostRef) {
  const row = await db
    .selectFrom("flag")
    .select([(eb) => eb.fn.countAll().as("flags"), (eb) => eb.fn.sum<number>("weight").as("weight")])
    .where("kind", "=", post.kind)
    .where("post_id", "=", post.id)
    .where("outcome", "is", null)
    .executeTakeFirstOrThrow();
  return { flags: Number(row.flags), weight: Number(row.weight ?? 0) };
}

/** What the post's pending spam flags weigh together. */
export async function pendingSpamWeight(db: Executor, post: PostRef) {
  const row = await db
    .selectFrom("flag")
    .select((eb) => eb.fn.sum<number>("weight").as("weight"))
    .where("kind", "=", post.kind)
    .where("post_id", "=", post.id)
    .where("outcome", "is", null)
    .where("reason", "=", "spam")
    .executeTakeFirstOrThrow();
  return Number(row.weight ?? 0);
}

/** How a member's past flags were decided: their record, which weighs their next flag. */
export async function flagRecordOf(db: Executor, memberId: string) {
  const rows = await db
    .selectFrom("flag")
    .select(["outcome", (eb) => eb.fn.countAll().as("n")])
    .where("flagger_id", "=", memberId)
    .where("outcome", "in", ["agreed", "disagreed"])
    .groupBy("outcome")
    .execute();
  const count = (outcome: string) => Number(rows.find((r) => r.outcome === outcome)?.n ?? 0);
  return { agreed: count("agreed"), disagreed: count("disagreed") };
}

export async function findReviewItem(db: Executor, post: PostRef) {
  return db.selectFrom("review_item").selectAll().where("kind", "=", post.kind).where("post_id", "=", post.id).executeTakeFirst();
}

/** The post's review item, opened (or opened again after a decision) with its pending flags' totals. */
export async function openReviewItem(db: Executor, post: PostRef, authorId: string, totals: { flags: number; weight: number }, at: string) {
  await db
    .insertInto("review_item")
    .values({ kind: post.kind, post_id: post.id, author_id: authorId, status: "pending", weight: totals.weight, flags: totals.flags, opened_at: at })
    .onConflict((oc) =>
      oc.columns(["kind", "post_id"]).doUpdateSet((eb) => ({
        weight: totals.weight,
        flags: totals.flags,
        // A decided item opened again by new flags starts a new wait, with nothing decided yet.
        opened_at: eb.case().when("review_item.status", "=", "decided").then(at).else(eb.ref("review_item.opened_at")).end(),
        hidden_by_flags_at: eb.case().when("review_item.status", "=", "decided").then(null).else(eb.ref("review_item.hidden_by_flags_at")).end(),
        decision: eb.case().when("review_item.status", "=", "decided").then(null).else(eb.ref("review_item.decision")).end(),
        decided_at: eb.case().when("review_item.status", "=", "decided").then(null).else(eb.ref("review_item.decided_at")).end(),
        decided_by: eb.case().when("review_item.status", "=", "decided").then(null).else(eb.ref("review_item.decided_by")).end(),
        status: "pending",
        reason: "flags",
      })),
    )
    .execute();
}

/** A new member's post caught by spam signals waits for a moderator's approval (issue 31). */
export async function openApprovalItem(db: Executor, post: PostRef, authorId: string, at: string) {
  await db
    .insertInto("review_item")
    .values({ kind: post.kind, post_id: post.id, author_id: authorId, status: "pending", reason: "approval", opened_at: at })
    .execute();
}

export async function markHiddenByFlags(db: Executor, post: PostRef, at: string) {
  await db.updateTable("review_item").set({ hidden_by_flags_at: at }).where("kind", "=", post.kind).where("post_id", "=", post.id).execute();
}

export async function decideReviewItem(db: Executor, post: PostRef, decision: "agree" | "disagree" | "ignore", moderatorId: string, at: string) {
  await db
    .updateTable("review_item")
    .set({ status: "decided", decision, decided_at: at, decided_by: moderatorId })
    .where("kind", "=", post.kind)
    .where("post_id", "=", post.id)
    .execute();
}

/** Settles the post's pending flags; returns their flaggers. */
export async function settleFlags(db: Executor, post: PostRef, outcome: "agreed" | "disagreed" | "ignored", at: string): Promise<string[]> {
  const rows = await db
    .updateTable("flag")
    .set({ outcome, decided_at: at })
    .where("kind", "=", post.kind)
    .where("post_id", "=", post.id)
    .where("outcome", "is", null)
    .returning("flagger_id")
    .execute();
  return rows.map((r) => r.flagger_id);
}

/** Pending review items, oldest first, after the keyset `after` (opened_at, kind, post_id). */
export async function pendingReviewItems(db: Executor, limit: number) {
  return db
    .selectFrom("review_item")
    .selectAll()
    .where("status", "=", "pending")
    .orderBy("opened_at", "asc")
    .orderBy("kind", "asc")
    .orderBy("post_id", "asc")
    .limit(limit)
    .execute();
}

export async function countPendingReviewItems(db: Executor) {
  const row = await db
    .selectFrom("review_item")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The pending flags of these posts, with their flaggers' names, oldest first; one query. */
export async function pendingFlagsOf(db: Executor, refs: readonly PostRef[]) {
  if (refs.length === 0) return [];
  return db
    .selectFrom("flag")
    .innerJoin("member", "member.id", "flag.flagger_id")
    .select(["flag.kind", "flag.post_id", "flag.reason", "flag.note", "flag.weight", "flag.created_at", "member.name", "member.handle"])
    .where("flag.outcome", "is", null)
    .where((eb) => eb.or(refs.map((r) => eb.and([eb("flag.kind", "=", r.kind), eb("flag.post_id", "=", r.id)]))))
    .orderBy("flag.created_at", "asc")
    .execute();
}

/** What the queue shows of each author: who they are, since when, and how their flagged posts were decided before; one query. */
export async function authorsRecord(db: Executor, authorIds: readonly string[]) {
  if (authorIds.length === 0) return [];
  return db
    .selectFrom("member")
    .select((eb) => [
      "member.id",
      "member.name",
      "member.handle",
      "member.rank",
      "member.created_at",
      eb
        .selectFrom("review_item")
        .select((e) => e.fn.countAll().as("n"))
        .whereRef("review_item.author_id", "=", "member.id")
        .where("review_item.decision", "=", "agree")
        .as("agreed_against"),
      eb
        .selectFrom("review_item")
        .select((e) => e.fn.countAll().as("n"))
        .whereRef("review_item.author_id", "=", "member.id")
        .where("review_item.decision", "=", "disagree")
        .as("cleared"),
    ])
    .where("member.id", "in", [...authorIds])
    .execute();
}

/**
 * Which of these (hidden) posts wait on /review, and why: the flags hid it, or it is a first post
 * held for approval. A pending item whose post a moderator hid before the flags' weight was reached
 * has neither. One query, by the review item's primary key.
 */
export async function reviewStatesOf(db: Executor, refs: readonly PostRef[]): Promise<Map<string, ReviewState>> {
  const states = new Map<string, ReviewState>();
  if (refs.length === 0) return states;
  const rows = await db
    .selectFrom("review_item")
    .select(["kind", "post_id", "reason", "hidden_by_flags_at"])
    .where("status", "=", "pending")
    .where(aboutPosts(refs))
    .execute();
  for (const row of rows) {
    const state = row.reason === "approval" ? "approval" : row.hidden_by_flags_at !== null ? "flags" : null;
    if (state) states.set(`${row.kind}:${row.post_id}`, state);
  }
  return states;
}
