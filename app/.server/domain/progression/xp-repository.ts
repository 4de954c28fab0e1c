import type { Executor } from "../../db/executor";
import type { NewXpEvent } from "../../db/schema";
import { moveXp } from "./standing";

/*
 * Every write of the ledger goes through the functions below, and each moves the member row's XP
 * total (and with it the stored rank) by exactly the points it inserted or deleted, in the same
 * transaction as the caller's (issue 13, ADR 0027): `member.xp` is always the ledger's sum.
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

/** Records an award; a second award for the same member, kind and subject is ignored. */
export async function insertXpEvent(db: Executor, event: NewXpEvent): Promise<boolean> {
  const inserted = await db
    .insertInto("xp_event")
    .values(event)
    .onConflict((oc) => oc.columns(["member_id", "kind", "subject_id"]).doNothing())
    .returning("points")
    .executeTakeFirst();
  if (!inserted) return false;
  await moveXp(db, event.member_id, Number(inserted.points));
  return true;
}

/** Subtracts the points of the deleted rows from the member's total. */
async function takeBack(db: Executor, memberId: string, deleted: { points: number }[]) {
  await moveXp(db, memberId, -deleted.reduce((sum, row) => sum + Number(row.points), 0));
}

export async function deleteXpEvent(db: Executor, memberId: string, kind: string, subjectId: string) {
  const deleted = await db
    .deleteFrom("xp_event")
    .where("member_id", "=", memberId)
    .where("kind", "=", kind)
    .where("subject_id", "=", subjectId)
    .returning("points")
    .execute();
  await takeBack(db, memberId, deleted);
}

/** Takes back awards of these kinds for one subject (a post's own id). */
export async function deleteXpEventsOf(db: Executor, memberId: string, kinds: readonly string[], subjectId: string) {
  if (kinds.length === 0) return;
  const deleted = await db
    .deleteFrom("xp_event")
    .where("member_id", "=", memberId)
    .where("kind", "in", [...kinds])
    .where("subject_id", "=", subjectId)
    .returning("points")
    .execute();
  await takeBack(db, memberId, deleted);
}

/** Takes back awards of these kinds that votes on one post gave (subject `<post id>:<voter id>`). */
export async function deleteVoteXpEvents(db: Executor, memberId: string, kinds: readonly string[], postId: number) {
  if (kinds.length === 0) return;
  const deleted = await db
    .deleteFrom("xp_event")
    .where("member_id", "=", memberId)
    .where("kind", "in", [...kinds])
    .where("subject_id", "like", `${postId}:%`)
    .returning("points")
    .execute();
  await takeBack(db, memberId, deleted);
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
