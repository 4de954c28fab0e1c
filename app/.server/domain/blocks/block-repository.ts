import type { Executor } from "../../db/executor";
import type { MemberBlock } from "~/lib/blocks";

export async function setBlock(db: Executor, memberId: string, blockedId: string, blocked: boolean, at: string) {
  if (blocked)
    await db
      .insertInto("member_block")
      .values({ member_id: memberId, blocked_id: blockedId, created_at: at })
      .onConflict((oc) => oc.columns(["member_id", "blocked_id"]).doNothing())
      .execute();
  else await db.deleteFrom("member_block").where("member_id", "=", memberId).where("blocked_id", "=", blockedId).execute();
}

export async function isBlocking(db: Executor, memberId: string, blockedId: string) {
  const row = await db.selectFrom("member_block").select("blocked_id").where("member_id", "=", memberId).where("blocked_id", "=", blockedId).executeTakeFirst();
  return row !== undefined;
}

/**
 * The blocks between a member and any of these others, either way (`ids` without the member): a
 * query to run, or to take into a larger one (what silences a notice, notification-repository.ts).
 */
export function blocksEitherWay(db: Executor, memberId: string, ids: readonly string[]) {
  return db
    .selectFrom("member_block")
    .where((eb) =>
      eb.or([eb.and([eb("member_id", "=", memberId), eb("blocked_id", "in", ids)]), eb.and([eb("blocked_id", "=", memberId), eb("member_id", "in", ids)])]),
    );
}

/**
 * Of these members, those the member blocked ("blocked") and those who blocked the member
 * ("blocked-by"); a block the member made wins where both exist. One statement, both directions.
 */
export async function blocksAmong(db: Executor, memberId: string, others: readonly string[]): Promise<Map<string, MemberBlock>> {
  const found = new Map<string, MemberBlock>();
  const ids = [...new Set(others)].filter((id) => id !== memberId);
  if (ids.length === 0) return found;
  const rows = await blocksEitherWay(db, memberId, ids).select(["member_id", "blocked_id"]).execute();
  for (const row of rows) if (row.blocked_id === memberId) found.set(row.member_id, "blocked-by");
  for (const row of rows) if (row.member_id === memberId) found.set(row.blocked_id, "blocked");
  return found;
}
