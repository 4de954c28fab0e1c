import type { Db } from "../../db/connect";
import { rankFor, rankProgress, type Rank, type RankProgress } from "~/lib/ranks";
import { xpTotals } from "./xp-repository";

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
