import type { Executor } from "../../db/executor";
import type { NewXpEvent } from "../../db/schema";

/*
 * The XP ledger's rows and the member row's XP total and stored rank: reads and writes, nothing
 * more. Keeping `member.xp` equal to the ledger's sum and the rank settled (issue 13, ADR 0027) is
 * the progression service's, which calls these in the caller's transaction (ADR 0053).
 */

/**
 * The ledger's own sum per member (audits and tests: it must equal `member.xp`). Pages read the
 * member row instead (standingsOf).
 */
export async function xpTotals(db: Executor, memberIds: readonly string[]): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  const ids = [...new Set(memberIds)];
  if (ids.length === 0) return totals;
  const rows = await db
    .selectFrom("xp_event")
    .select(["member_id", (eb) => eb.fn.sum<number>("points").as("xp")])
    .where("member_id", "in", ids)
    .groupBy("member_id")
    .execute();
  for (const row of rows) totals.set(row.member_id, Number(row.xp));
  return totals;
}

/**
 * Records an award and returns its points; a second award for the same member, kind and subject
 * is ignored (null).
 */
export async function insertXpEvent(db: Executor, event: NewXpEvent): Promise<number | null> {
  const inserted = await db
    .insertInto("xp_event")
    .values(event)
    .onConflict((oc) => oc.columns(["member_id", "kind", "subject_id"]).doNothing())
    .returning("points")
    .executeTakeFirst();
  return inserted ? Number(inserted.points) : null;
}

/** The points of the deleted rows. */
const pointsOf = (deleted: { points: number }[]) => deleted.reduce((sum, row) => sum + Number(row.points), 0);

/** Deletes one award; returns the points it had (0 when there was none). */
export async function deleteXpEvent(db: Executor, memberId: string, kind: string, subjectId: string): Promise<number> {
  const deleted = await db
    .deleteFrom("xp_event")
    .where("member_id", "=", memberId)
    .where("kind", "=", kind)
    .where("subject_id", "=", subjectId)
    .returning("points")
    .execute();
  return pointsOf(deleted);
}

/** Deletes awards of these kinds for one subject (a post's own id); returns their points. */
export async function deleteXpEventsOf(db: Executor, memberId: string, kinds: readonly string[], subjectId: string): Promise<number> {
  if (kinds.length === 0) return 0;
  const deleted = await db
    .deleteFrom("xp_event")
    .where("member_id", "=", memberId)
    .where("kind", "in", [...kinds])
    .where("subject_id", "=", subjectId)
    .returning("points")
    .execute();
  return pointsOf(deleted);
}

/** Deletes awards of these kinds that votes on one post gave (subject `<post id>:<voter id>`); returns their points. */
export async function deleteVoteXpEvents(db: Executor, memberId: string, kinds: readonly string[], postId: number): Promise<number> {
  if (kinds.length === 0) return 0;
  const deleted = await db
    .deleteFrom("xp_event")
    .where("member_id", "=", memberId)
    .where("kind", "in", [...kinds])
    .where("subject_id", "like", `${postId}:%`)
    .returning("points")
    .execute();
  return pointsOf(deleted);
}

/** Points of these kinds a member got since an instant (the daily cap on votes and likes). */
export async function pointsSince(db: Executor, memberId: string, kinds: readonly string[], since: string): Promise<number> {
  const used = await db
    .selectFrom("xp_event")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("points"), eb.lit(0)).as("total"))
    .where("member_id", "=", memberId)
    .where("kind", "in", [...kinds])
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(used.total);
}

/** Locks a member's row until the transaction ends (PostgreSQL only; SQLite writers are serial). */
export async function lockMember(db: Executor, memberId: string) {
  await db.selectFrom("member").select("id").where("id", "=", memberId).forUpdate().execute();
}

/** A member's latest awards, newest first (the dashboard's recent activity). */
export async function recentXpEvents(db: Executor, memberId: string, limit: number) {
  return db
    .selectFrom("xp_event")
    .select(["id", "kind", "points", "created_at"])
    .where("member_id", "=", memberId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/**
 * Moves a member's stored XP by `delta` as one `xp = xp + delta` statement (never read-then-write:
 * on PostgreSQL the row lock it takes orders concurrent awards); returns the new total and the
 * stored rank.
 */
export async function addToMemberXp(db: Executor, memberId: string, delta: number): Promise<{ xp: number; rank: string } | undefined> {
  const row = await db
    .updateTable("member")
    .set((eb) => ({ xp: eb("xp", "+", delta) }))
    .where("id", "=", memberId)
    .returning(["xp", "rank"])
    .executeTakeFirst();
  return row ? { xp: Number(row.xp), rank: row.rank } : undefined;
}

/** Members' stored XP totals and ranks, one query. */
export async function memberXpAndRanks(db: Executor, memberIds: readonly string[]) {
  if (memberIds.length === 0) return [];
  return db
    .selectFrom("member")
    .select(["id", "xp", "rank"])
    .where("id", "in", [...memberIds])
    .execute();
}

export async function setMemberRank(db: Executor, memberId: string, rank: string) {
  await db.updateTable("member").set({ rank }).where("id", "=", memberId).execute();
}
