import { engineOf, type Db } from "../../db/connect";
import { startOfUtcDay } from "~/lib/dates";
import { rankFor, rankProgress, type Rank, type RankProgress } from "~/lib/ranks";
import { CAPPED_KINDS, DAILY_VOTE_XP_CAP, XP, type XpKind } from "~/lib/xp";
import { deleteXpEvent, insertXpEvent, lockMember, pointsSince, xpTotals } from "./xp-repository";

/** Ranks of many members, from the ledger, in one query. Virtues come with the challenges. */
export async function ranksOf(db: Db, memberIds: readonly string[]): Promise<Map<string, Rank>> {
  const totals = await xpTotals(db, memberIds);
  return new Map(memberIds.map((id) => [id, rankFor(totals.get(id) ?? 0)]));
}

export async function progressOf(db: Db, memberId: string): Promise<RankProgress> {
  const totals = await xpTotals(db, [memberId]);
  return rankProgress(totals.get(memberId) ?? 0);
}

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
