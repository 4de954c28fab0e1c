import type { Executor } from "../../db/executor";
import type { Insertable } from "kysely";
import type { AttemptStatus, ChallengeStatus, ChallengeTable } from "../../db/schema";

const CHALLENGE_COLUMNS = [
  "challenge.id",
  "challenge.title",
  "challenge.description",
  "challenge.path",
  "challenge.length_days",
  "challenge.check_ins_required",
  "challenge.status",
  "challenge.created_by",
  "challenge.created_at",
] as const;

export async function findChallenge(db: Executor, id: number) {
  return db.selectFrom("challenge").select(CHALLENGE_COLUMNS).where("id", "=", id).executeTakeFirst();
}

export async function listChallenges(db: Executor, status: ChallengeStatus) {
  return db
    .selectFrom("challenge")
    .select(CHALLENGE_COLUMNS)
    .where("status", "=", status)
    .orderBy(status === "published" ? "published_at" : "created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

/** Virtues of many challenges, one query. */
export async function challengeVirtues(db: Executor, challengeIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(challengeIds.map((id) => [id, []]));
  if (challengeIds.length === 0) return out;
  const rows = await db
    .selectFrom("challenge_virtue")
    .select(["challenge_id", "virtue"])
    .where("challenge_id", "in", [...challengeIds])
    .orderBy("challenge_id")
    .orderBy("virtue")
    .execute();
  for (const row of rows) out.get(row.challenge_id)?.push(row.virtue);
  return out;
}

/**
 * Members on each challenge (attempts still running somewhere on Earth: ends_on on or after the
 * earliest calendar day anywhere) and members who completed it, one query for all.
 */
export async function participationOf(db: Executor, challengeIds: readonly number[], earliestDay: string) {
  const out = new Map<number, { members: number; completed: number }>(challengeIds.map((id) => [id, { members: 0, completed: 0 }]));
  if (challengeIds.length === 0) return out;
  const rows = await db
    .selectFrom("challenge_attempt")
    .select((eb) => [
      "challenge_id",
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb("status", "=", "active"), eb("ends_on", ">=", earliestDay)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as("members"),
      eb.fn.sum<number>(eb.case().when("status", "=", "completed").then(1).else(0).end()).as("completed"),
    ])
    .where("challenge_id", "in", [...challengeIds])
    .groupBy("challenge_id")
    .execute();
  for (const row of rows) out.set(row.challenge_id, { members: Number(row.members ?? 0), completed: Number(row.completed ?? 0) });
  return out;
}

/** A new challenge, every column named (who wrote it, when, the submission's key); null when its key made one already. */
export async function insertChallenge(
  db: Executor,
  values: Required<Omit<Insertable<ChallengeTable>, "id" | "reviewed_by">> & { created_by: string; submission_key: string },
) {
  const row = await db
    .insertInto("challenge")
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function findBySubmissionKey(db: Executor, memberId: string, key: string) {
  return db.selectFrom("challenge").select(["id", "status"]).where("created_by", "=", memberId).where("submission_key", "=", key).executeTakeFirst();
}

export async function insertChallengeVirtues(db: Executor, challengeId: number, virtues: readonly string[]) {
  await db
    .insertInto("challenge_virtue")
    .values(virtues.map((virtue) => ({ challenge_id: challengeId, virtue })))
    .execute();
}

/** Moves a proposal to published or declined; false when it was no longer a proposal. */
export async function reviewChallenge(db: Executor, id: number, status: "published" | "declined", reviewerId: string, at: string) {
  const result = await db
    .updateTable("challenge")
    .set({ status, reviewed_by: reviewerId, published_at: status === "published" ? at : null })
    .where("id", "=", id)
    .where("status", "=", "proposed")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// ---------------------------------------------------------------- attempts

const ATTEMPT_COLUMNS = ["id", "challenge_id", "member_id", "status", "starts_on", "ends_on", "check_in_count", "completed_at"] as const;

/** The member's active or completed attempt at a challenge (at most one, by the partial unique index). */
export async function findOpenAttempt(db: Executor, challengeId: number, memberId: string) {
  return db
    .selectFrom("challenge_attempt")
    .select(ATTEMPT_COLUMNS)
    .where("challenge_id", "=", challengeId)
    .where("member_id", "=", memberId)
    .where("status", "in", ["active", "completed"])
    .executeTakeFirst();
}

/** The member's latest attempt at a challenge, whatever its status. */
export async function findLatestAttempt(db: Executor, challengeId: number, memberId: string) {
  return db
    .selectFrom("challenge_attempt")
    .select(ATTEMPT_COLUMNS)
    .where("challenge_id", "=", challengeId)
    .where("member_id", "=", memberId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** Latest attempt of a member at each of many challenges, one query. */
export async function latestAttemptsOf(db: Executor, memberId: string, challengeIds: readonly number[]) {
  const out = new Map<number, { status: AttemptStatus; ends_on: string; check_in_count: number }>();
  if (challengeIds.length === 0) return out;
  const rows = await db
    .selectFrom("challenge_attempt")
    .select(["challenge_id", "status", "ends_on", "check_in_count", "id"])
    .where("member_id", "=", memberId)
    .where("challenge_id", "in", [...challengeIds])
    .orderBy("id", "asc")
    .execute();
  for (const row of rows) out.set(row.challenge_id, row);
  return out;
}

/** Locks an attempt's row until the transaction ends (PostgreSQL; SQLite writers are serial). */
export async function lockAttempt(db: Executor, attemptId: number) {
  await db.selectFrom("challenge_attempt").select("id").where("id", "=", attemptId).forUpdate().execute();
}

export async function insertAttempt(db: Executor, values: { challenge_id: number; member_id: string; starts_on: string; ends_on: string; created_at: string }) {
  // A second join at the same moment hits the partial unique index and inserts nothing.
  const row = await db
    .insertInto("challenge_attempt")
    .values({ ...values, status: "active" })
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function failAttempt(db: Executor, attemptId: number) {
  await db.updateTable("challenge_attempt").set({ status: "failed" }).where("id", "=", attemptId).where("status", "=", "active").execute();
}

/** Marks active attempts whose last day is past as failed (one member's, before reading them). */
export async function failRunOutAttempts(db: Executor, memberId: string, today: string) {
  await db
    .updateTable("challenge_attempt")
    .set({ status: "failed" })
    .where("member_id", "=", memberId)
    .where("status", "=", "active")
    .where("ends_on", "<", today)
    .execute();
}

/** Records one check-in day; false when that day was already checked in. */
export async function insertCheckIn(db: Executor, attemptId: number, day: string, at: string) {
  const row = await db
    .insertInto("challenge_check_in")
    .values({ attempt_id: attemptId, day, created_at: at })
    .onConflict((oc) => oc.columns(["attempt_id", "day"]).doNothing())
    .returning("day")
    .executeTakeFirst();
  if (!row) return null;
  const updated = await db
    .updateTable("challenge_attempt")
    .set((eb) => ({ check_in_count: eb("check_in_count", "+", 1) }))
    .where("id", "=", attemptId)
    .returning("check_in_count")
    .executeTakeFirstOrThrow();
  return Number(updated.check_in_count);
}

/** Completes an active attempt; false when another request completed it first. */
export async function completeAttempt(db: Executor, attemptId: number, at: string) {
  const result = await db
    .updateTable("challenge_attempt")
    .set({ status: "completed", completed_at: at })
    .where("id", "=", attemptId)
    .where("status", "=", "active")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function checkInDaysOf(db: Executor, attemptIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(attemptIds.map((id) => [id, []]));
  if (attemptIds.length === 0) return out;
  const rows = await db
    .selectFrom("challenge_check_in")
    .select(["attempt_id", "day"])
    .where("attempt_id", "in", [...attemptIds])
    .orderBy("day")
    .execute();
  for (const row of rows) out.get(row.attempt_id)?.push(row.day);
  return out;
}

/** A member's active attempts with their challenges (the dashboard). */
export async function activeAttemptsOf(db: Executor, memberId: string) {
  return db
    .selectFrom("challenge_attempt as a")
    .innerJoin("challenge as c", "c.id", "a.challenge_id")
    .select(["a.id", "a.challenge_id", "a.starts_on", "a.ends_on", "a.check_in_count", "c.title", "c.path", "c.length_days", "c.check_ins_required"])
    .where("a.member_id", "=", memberId)
    .where("a.status", "=", "active")
    .orderBy("a.ends_on")
    .execute();
}
