import { engineOf, type Db } from "../../db/connect";
import { startOfUtcDay } from "~/lib/dates";
import { rankFor, rankProgress, type Rank, type RankProgress } from "~/lib/ranks";
import { deleteXpEvent, insertXpEvent, lockMember, pointsSince, xpTotals } from "./xp-repository";

/**
 * XP for each event (PRODUCT.md §3). Awards go through the ledger, one row per member, kind and
 * subject, so the same post can never pay twice.
 */
export const XP = {
  "discussion.started": 5,
  "reply.posted": 2,
  "question.asked": 2,
  "answer.posted": 5,
  "answer.accepted": 15,
  "answer.helpful": 2,
  "creation.shared": 10,
  "creation.liked": 1,
  "challenge.check-in": 1,
  "challenge.completed": 25,
} as const;
export type XpKind = keyof typeof XP;

/** Ranks of many members, from the ledger, in one query. Virtues come with the challenges. */
export async function ranksOf(db: Db, memberIds: readonly string[]): Promise<Map<string, Rank>> {
  const totals = await xpTotals(db, memberIds);
  return new Map(memberIds.map((id) => [id, rankFor(totals.get(id) ?? 0)]));
}

export async function progressOf(db: Db, memberId: string): Promise<RankProgress> {
  const totals = await xpTotals(db, [memberId]);
  return rankProgress(totals.get(memberId) ?? 0);
}

/** PRODUCT.md §3: XP from others' votes and likes counts at most 50 a day for a member. */
export const CAPPED_KINDS: readonly XpKind[] = ["answer.helpful", "creation.liked"];
export const DAILY_VOTE_XP_CAP = 50;

/**
 * Awards the XP of one event, once (the ledger's unique key), inside the caller's transaction.
 * Votes and likes beyond the daily cap are recorded with the points that were left (possibly 0),
 * so taking the vote back later takes back exactly what it gave.
 */
export async function awardXp(trx: Db, memberId: string, kind: XpKind, subjectId: string | number, at = new Date()) {
  let points: number = XP[kind];
  if (CAPPED_KINDS.includes(kind)) {
    if (engineOf(trx) === "postgres") {
      // Serialise one member's capped awards, so concurrent votes cannot all see room under the cap.
      await lockMember(trx, memberId);
    }
    const used = await pointsSince(trx, memberId, CAPPED_KINDS, startOfUtcDay(at));
    points = Math.max(0, Math.min(points, DAILY_VOTE_XP_CAP - used));
  }
  return insertXpEvent(trx, { member_id: memberId, kind, subject_id: String(subjectId), points, created_at: at.toISOString() });
}

export async function revokeXp(trx: Db, memberId: string, kind: XpKind, subjectId: string | number) {
  await deleteXpEvent(trx, memberId, kind, String(subjectId));
}
