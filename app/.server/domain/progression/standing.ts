import type { Executor } from "../../db/executor";
import { RANKS, rankFor } from "~/lib/ranks";
import { tag, wrote } from "../../cache/page-tags";
import { virtueLevelsFor } from "./virtue-levels";

/** Below this much XP the virtues cannot change a rank (only master asks for them). */
const MASTER_XP = RANKS[RANKS.length - 1].minXp;

/**
 * Moves a member's stored XP by `delta` in the caller's transaction, as one `xp = xp + delta`
 * statement (never read-then-write: on PostgreSQL the row lock it takes orders concurrent awards),
 * then settles the stored rank from the XP that statement returned (issue 13, ADR 0027).
 */
export async function moveXp(db: Executor, memberId: string, delta: number) {
  if (delta === 0) return;
  const row = await db
    .updateTable("member")
    .set((eb) => ({ xp: eb("xp", "+", delta) }))
    .where("id", "=", memberId)
    .returning(["xp", "rank"])
    .executeTakeFirst();
  if (row) await storeRank(db, memberId, Number(row.xp), row.rank);
}

/**
 * Recomputes a member's stored rank from their stored XP and their virtue levels: after a challenge
 * attempt completes (virtue levels move), and whenever XP moves (through moveXp).
 */
export async function settleRank(db: Executor, memberId: string) {
  const row = await db.selectFrom("member").select(["xp", "rank"]).where("id", "=", memberId).executeTakeFirst();
  if (row) await storeRank(db, memberId, Number(row.xp), row.rank);
}

async function storeRank(db: Executor, memberId: string, xp: number, stored: string) {
  // Virtue levels cost a query; below master's XP they cannot decide the rank.
  const levels = xp >= MASTER_XP ? ((await virtueLevelsFor(db, [memberId])).get(memberId) ?? {}) : {};
  const rank = rankFor(xp, levels).id;
  if (rank === stored) return;
  await db.updateTable("member").set({ rank }).where("id", "=", memberId).execute();
  // Every page that shows this member as an author shows the rank.
  wrote(tag.member(memberId));
}
