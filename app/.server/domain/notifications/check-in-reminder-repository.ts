import type { Executor } from "../../db/executor";
import { DELETED_HANDLE_PREFIX } from "~/lib/members";

/**
 * The queries of the daily check-in reminder (issue 28): which attempts may need one, which days
 * were checked in, and which reminders were already written.
 */

/** Active attempts at published challenges of living members, after `afterId` in id order: one batch. */
export async function activeAttemptsAfter(db: Executor, afterId: number, limit: number) {
  return db
    .selectFrom("challenge_attempt as a")
    .innerJoin("challenge as c", "c.id", "a.challenge_id")
    .innerJoin("member as m", "m.id", "a.member_id")
    .select(["a.id", "a.challenge_id", "a.member_id", "a.starts_on", "a.ends_on", "c.title", "m.time_zone"])
    .where("a.status", "=", "active")
    .where("c.status", "=", "published")
    .where("m.handle", "not like", `${DELETED_HANDLE_PREFIX}%`)
    .where("a.id", ">", afterId)
    .orderBy("a.id")
    .limit(limit)
    .execute();
}

/** Of these attempts and days, the pairs that have a check-in, as "<attempt>:<day>". */
export async function checkedInPairs(db: Executor, pairs: ReadonlyArray<{ attemptId: number; day: string }>): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db
    .selectFrom("challenge_check_in")
    .select(["attempt_id", "day"])
    .where("attempt_id", "in", [...new Set(pairs.map((p) => p.attemptId))])
    .where("day", "in", [...new Set(pairs.map((p) => p.day))])
    .execute();
  return new Set(rows.map((r) => `${r.attempt_id}:${r.day}`));
}

/** Of these attempts, those still active. */
export async function activeAttemptIds(db: Executor, attemptIds: readonly number[]): Promise<Set<number>> {
  if (attemptIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("challenge_attempt")
    .select("id")
    .where("id", "in", [...new Set(attemptIds)])
    .where("status", "=", "active")
    .execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * Of these group keys, those the members already have a line for, read or not (the unique index
 * covers only the unread). Written since `since`: a day's reminder is never older than two days,
 * so the members' (member_id, at) index bounds the search.
 */
export async function existingGroupKeys(db: Executor, memberIds: readonly string[], keys: readonly string[], since: string): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom("notification")
    .select("group_key")
    .where("member_id", "in", [...new Set(memberIds)])
    .where("at", ">=", since)
    .where("group_key", "in", [...keys])
    .execute();
  return new Set(rows.map((r) => r.group_key!));
}

/** Marks the member's unread line of this group read. */
export async function markGroupRead(trx: Executor, memberId: string, groupKey: string, at: string) {
  const result = await trx
    .updateTable("notification")
    .set({ read_at: at })
    .where("member_id", "=", memberId)
    .where("group_key", "=", groupKey)
    .where("read_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
