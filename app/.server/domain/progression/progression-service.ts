import { engineOf, type Db } from "../../db/connect";
import type { Executor } from "../../db/executor";
import type { NewXpEvent } from "../../db/schema";
import { tag, wrote } from "../../cache/page-tags";
import { startOfUtcDay } from "~/lib/dates";
import { isRankAtLeast, progressAt, rankById, RANKS, rankFor, type Rank, type RankProgress, type VirtueLevels } from "~/lib/ranks";
import { CAPPED_KINDS, DAILY_VOTE_XP_CAP, XP, type XpKind } from "~/lib/xp";
import { notify } from "../notifications/notification-service";
import { virtueLevelsFor } from "./virtue-levels";
import { storedRank } from "./authors";
import {
  addToMemberXp,
  deleteVoteXpEvents,
  deleteXpEvent,
  deleteXpEventsOf,
  insertXpEvent,
  lockMember,
  memberXpAndRanks,
  pointsSince,
  setMemberRank,
} from "./xp-repository";

/*
 * A member's progression: the XP ledger, the XP total and rank the member row keeps with it (issue
 * 13, ADR 0027), and the pages that show them. Every write of the ledger goes through this service,
 * which moves the member row's total by exactly the points it inserted or deleted, settles the
 * rank, and names the pages it changed, all in the caller's transaction: `member.xp` is always the
 * ledger's sum. The repository only reads and writes rows (ADR 0053).
 */

export interface Standing {
  xp: number;
  virtueLevels: VirtueLevels;
  rank: Rank;
}

// ---------------------------------------------------------------- reading

/** XP and rank as the member rows hold them (moved with the ledger, ADR 0027): one query. */
async function storedStandings(db: Executor, memberIds: readonly string[]) {
  const out = new Map<string, { xp: number; rank: Rank }>();
  for (const row of await memberXpAndRanks(db, [...new Set(memberIds)])) out.set(row.id, { xp: Number(row.xp), rank: rankById(storedRank(row.rank)) });
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

// ---------------------------------------------------------------- the ledger and the stored rank

/** Below this much XP the virtues cannot change a rank (only master asks for them). */
const MASTER_XP = RANKS[RANKS.length - 1].minXp;

/** Moves the stored XP by what the ledger gained or lost, then settles the stored rank from the new total. */
async function moveXp(db: Executor, memberId: string, delta: number) {
  // The profile shows the exact XP.
  wrote(tag.profile(memberId));
  if (delta === 0) return;
  const moved = await addToMemberXp(db, memberId, delta);
  if (moved) await storeRank(db, memberId, moved.xp, moved.rank);
}

/**
 * Recomputes a member's stored rank from their stored XP and their virtue levels: after a challenge
 * attempt completes (virtue levels move), and whenever XP moves (through moveXp).
 */
export async function settleRank(db: Executor, memberId: string) {
  const [row] = await memberXpAndRanks(db, [memberId]);
  if (row) await storeRank(db, memberId, Number(row.xp), row.rank);
}

async function storeRank(db: Executor, memberId: string, xp: number, stored: string) {
  // Virtue levels cost a query; below master's XP they cannot decide the rank.
  const levels = xp >= MASTER_XP ? ((await virtueLevelsFor(db, [memberId])).get(memberId) ?? {}) : {};
  const rank = rankFor(xp, levels).id;
  if (rank === stored) return;
  await setMemberRank(db, memberId, rank);
  // Every page that shows this member as an author shows the rank.
  wrote(tag.member(memberId));
  // A rise is news to the member (issue 28); a fall (XP taken back) is not announced.
  if (isRankAtLeast(rank, storedRank(stored))) {
    const { label } = rankById(rank);
    await notify(db, null, [{ memberId, kind: "rank", subject: `rank:${rank}`, parent: null, title: label, url: "/ranks" }], new Date());
  }
}

/**
 * Records one ledger event with the points given, once (the ledger's unique key: member, kind,
 * subject), and moves the member's total and rank with it. False when it was recorded already.
 */
export async function recordXpEvent(trx: Executor, event: NewXpEvent): Promise<boolean> {
  const points = await insertXpEvent(trx, event);
  if (points === null) return false;
  await moveXp(trx, event.member_id, points);
  return true;
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
  // The profile shows the exact XP, even when this award was made already.
  wrote(tag.profile(memberId));
  return recordXpEvent(trx, { member_id: memberId, kind, subject_id: String(subjectId), points, created_at: at.toISOString() });
}

/** Takes back one award (a vote, a like, an acceptance undone). */
export async function revokeXp(trx: Executor, memberId: string, kind: XpKind, subjectId: string | number) {
  await moveXp(trx, memberId, -(await deleteXpEvent(trx, memberId, kind, String(subjectId))));
}

/** Takes back a post's awards: of these kinds for its own id (its author's award, an acceptance). */
export async function takeBackXpOf(trx: Executor, memberId: string, kinds: readonly XpKind[], subjectId: string | number) {
  await moveXp(trx, memberId, -(await deleteXpEventsOf(trx, memberId, kinds, String(subjectId))));
}

/** Takes back what votes on one post gave its author (subjects `<post id>:<voter id>`). */
export async function takeBackVoteXp(trx: Executor, memberId: string, kinds: readonly XpKind[], postId: number) {
  await moveXp(trx, memberId, -(await deleteVoteXpEvents(trx, memberId, kinds, postId)));
}
