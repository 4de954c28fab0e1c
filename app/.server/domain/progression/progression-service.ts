import { engineOf, type Db } from "../../db/connect";
import { tag, wrote } from "../../cache/page-tags";
import { startOfUtcDay } from "~/lib/dates";
import { rankFor, rankProgress, type Rank, type RankProgress, type VirtueLevels } from "~/lib/ranks";
import { CAPPED_KINDS, DAILY_VOTE_XP_CAP, XP, type XpKind } from "~/lib/xp";
import { virtueLevelsFor } from "./virtue-levels";
import { deleteXpEvent, insertXpEvent, lockMember, pointsSince, xpTotals } from "./xp-repository";

export interface Standing {
  xp: number;
  virtueLevels: VirtueLevels;
  rank: Rank;
}

/**
 * XP and virtue levels of many members, two queries whatever their number, and the rank that the
 * one rank function (`rankFor`, app/lib/ranks.ts) gives them.
 */
export async function standingsOf(db: Db, memberIds: readonly string[]): Promise<Map<string, Standing>> {
  const [totals, levels] = await Promise.all([xpTotals(db, memberIds), virtueLevelsFor(db, memberIds)]);
  return new Map(
    memberIds.map((id) => {
      const xp = totals.get(id) ?? 0;
      const virtueLevels = levels.get(id) ?? {};
      return [id, { xp, virtueLevels, rank: rankFor(xp, virtueLevels) }];
    }),
  );
}

/** Ranks of many members (lists of authors): no query per member. */
export async function ranksOf(db: Db, memberIds: readonly string[]): Promise<Map<string, Rank>> {
  const standings = await standingsOf(db, memberIds);
  return new Map([...standings].map(([id, s]) => [id, s.rank]));
}

/** One member's rank, from XP and virtues. */
export async function memberRank(db: Db, memberId: string): Promise<Rank> {
  return (await ranksOf(db, [memberId])).get(memberId)!;
}

export async function progressOf(db: Db, memberId: string): Promise<RankProgress> {
  const standing = (await standingsOf(db, [memberId])).get(memberId)!;
  return rankProgress(standing.xp, standing.virtueLevels);
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
  // The profile shows the exact XP; a new rank (shown wherever the member is an author) is the member tag's.
  wrote(tag.profile(memberId));
  return insertXpEvent(trx, { member_id: memberId, kind, subject_id: String(subjectId), points, created_at: at.toISOString() });
}

export async function revokeXp(trx: Db, memberId: string, kind: XpKind, subjectId: string | number) {
  wrote(tag.profile(memberId));
  await deleteXpEvent(trx, memberId, kind, String(subjectId));
}
