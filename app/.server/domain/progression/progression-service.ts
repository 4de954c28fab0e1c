import { engineOf, type Db } from "../../db/connect";
import type { Executor } from "../../db/executor";
import { tag, wrote } from "../../cache/page-tags";
import { startOfUtcDay } from "~/lib/dates";
import { progressAt, rankById, type Rank, type RankProgress, type VirtueLevels } from "~/lib/ranks";
import { CAPPED_KINDS, DAILY_VOTE_XP_CAP, XP, type XpKind } from "~/lib/xp";
import { virtueLevelsFor } from "./virtue-levels";
import { storedRank } from "./authors";
import { deleteXpEvent, insertXpEvent, lockMember, pointsSince } from "./xp-repository";

export interface Standing {
  xp: number;
  virtueLevels: VirtueLevels;
  rank: Rank;
}

/** XP and rank as the member rows hold them (moved with the ledger, ADR 0027): one query. */
async function storedStandings(db: Executor, memberIds: readonly string[]) {
  const ids = [...new Set(memberIds)];
  const out = new Map<string, { xp: number; rank: Rank }>();
  if (ids.length === 0) return out;
  const rows = await db.selectFrom("member").select(["id", "xp", "rank"]).where("id", "in", ids).execute();
  for (const row of rows) out.set(row.id, { xp: Number(row.xp), rank: rankById(storedRank(row.rank)) });
  return out;
}

const NO_STANDING = { xp: 0, rank: rankById("initiate") };

/**
 * XP, rank and virtue levels of many members, two queries whatever their number: XP and rank from
 * the member rows, virtue levels (for their badges) from completed challenges.
 */
export async function standingsOf(db: Db, memberIds: readonly string[]): Promise<Map<string, Standing>> {
  const [stored, levels] = await Promise.all([storedStandings(db, memberIds), virtueLevelsFor(db, memberIds)]);
  return new Map(
    memberIds.map((id) => {
      const { xp, rank } = stored.get(id) ?? NO_STANDING;
      return [id, { xp, virtueLevels: levels.get(id) ?? {}, rank }];
    }),
  );
}

/** Ranks of many members, one query: the member rows' stored ranks. */
export async function ranksOf(db: Executor, memberIds: readonly string[]): Promise<Map<string, Rank>> {
  const stored = await storedStandings(db, memberIds);
  return new Map(memberIds.map((id) => [id, (stored.get(id) ?? NO_STANDING).rank]));
}

/** One member's rank, from the member row. */
export async function memberRank(db: Executor, memberId: string): Promise<Rank> {
  return (await ranksOf(db, [memberId])).get(memberId)!;
}

/** One member's XP, rank and what the next rank needs: one query (needsVirtues follows from XP and rank). */
export async function progressOf(db: Executor, memberId: string): Promise<RankProgress> {
  const { xp, rank } = (await storedStandings(db, [memberId])).get(memberId) ?? NO_STANDING;
  return progressAt(xp, rank);
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
