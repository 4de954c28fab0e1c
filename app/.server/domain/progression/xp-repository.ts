import type { Db } from "../../db/connect";
import type { NewXpEvent } from "../../db/schema";

type Executor = Pick<Db, "selectFrom" | "insertInto" | "deleteFrom">;

/** XP per member for many members in one query (no N+1 when a page lists authors). */
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
  const result = await db
    .insertInto("xp_event")
    .values(event)
    .onConflict((oc) => oc.columns(["member_id", "kind", "subject_id"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteXpEvent(db: Executor, memberId: string, kind: string, subjectId: string) {
  await db
    .deleteFrom("xp_event")
    .where("member_id", "=", memberId)
    .where("kind", "=", kind)
    .where("subject_id", "=", subjectId)
    .execute();
}

/** Takes back awards of these kinds for one subject (a post's own id). */
export async function deleteXpEventsOf(db: Executor, memberId: string, kinds: readonly string[], subjectId: string) {
  if (kinds.length === 0) return;
  await db.deleteFrom("xp_event").where("member_id", "=", memberId).where("kind", "in", [...kinds]).where("subject_id", "=", subjectId).execute();
}

/** Takes back awards of these kinds that votes on one post gave (subject `<post id>:<voter id>`). */
export async function deleteVoteXpEvents(db: Executor, memberId: string, kinds: readonly string[], postId: number) {
  if (kinds.length === 0) return;
  await db.deleteFrom("xp_event").where("member_id", "=", memberId).where("kind", "in", [...kinds]).where("subject_id", "like", `${postId}:%`).execute();
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
