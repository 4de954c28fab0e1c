import type { Db } from "~/.server/db/connect";
import { settleRank } from "~/.server/domain/progression/progression-service";
import type { PathId } from "~/lib/domain-values";
import type { Virtue } from "~/lib/virtues";

export interface ChallengeOverrides {
  title?: string;
  description?: string;
  path?: PathId;
  virtues?: Virtue[];
  lengthDays?: number;
  checkInsRequired?: number;
  status?: "published" | "proposed" | "declined";
  createdBy?: string | null;
}

let sequence = 0;

/** A challenge row (published unless told), with its virtues. */
export async function challenge(db: Db, overrides: ChallengeOverrides = {}) {
  sequence += 1;
  const status = overrides.status ?? "published";
  const row = await db
    .insertInto("challenge")
    .values({
      title: overrides.title ?? `Factory challenge ${sequence}`,
      description: overrides.description ?? "A challenge for a test.",
      path: overrides.path ?? "monk",
      length_days: overrides.lengthDays ?? 7,
      check_ins_required: overrides.checkInsRequired ?? 5,
      status,
      created_by: overrides.createdBy ?? null,
      published_at: status === "published" ? new Date().toISOString() : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const virtues = overrides.virtues ?? ["discipline"];
  await db
    .insertInto("challenge_virtue")
    .values(virtues.map((virtue) => ({ challenge_id: row.id, virtue })))
    .execute();
  return { id: row.id, virtues, lengthDays: overrides.lengthDays ?? 7, checkInsRequired: overrides.checkInsRequired ?? 5 };
}

/**
 * An attempt with check-ins on the given days (YYYY-MM-DD, in the member's zone), written as rows:
 * how a browser test seeds the days before today without a test clock in the app. `completed` marks
 * it done (for virtue levels, and the stored rank they decide) without the XP a real completion pays.
 */
export async function attempt(
  db: Db,
  memberId: string,
  challengeId: number,
  options: { startsOn: string; endsOn: string; days?: string[]; status?: "active" | "completed" | "failed" },
) {
  const row = await db
    .insertInto("challenge_attempt")
    .values({
      challenge_id: challengeId,
      member_id: memberId,
      status: options.status ?? "active",
      starts_on: options.startsOn,
      ends_on: options.endsOn,
      check_in_count: options.days?.length ?? 0,
      completed_at: options.status === "completed" ? new Date().toISOString() : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (options.days?.length) {
    await db
      .insertInto("challenge_check_in")
      .values(options.days.map((day) => ({ attempt_id: row.id, day })))
      .execute();
  }
  // A completion raises virtue levels, which the member row's rank depends on (as checkIn settles it).
  if (options.status === "completed") await settleRank(db, memberId);
  return row.id;
}
