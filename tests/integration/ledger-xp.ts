import { expect } from "vitest";
import type { Db } from "~/.server/db/connect";
import { virtueLevelsFor } from "~/.server/domain/progression/virtue-levels";
import { xpTotals } from "~/.server/domain/progression/xp-repository";
import { rankFor } from "~/lib/ranks";

/**
 * A member's XP as the ledger sums it, after checking that the member row agrees: `member.xp` is
 * the same sum and `member.rank` the rank it and the virtue levels give (ADR 0027). Every test that
 * reads XP through this checks the row after each award, revocation, capped vote and like.
 */
export async function ledgerXp(db: Db, memberId: string): Promise<number> {
  const [totals, levels, row] = await Promise.all([
    xpTotals(db, [memberId]),
    virtueLevelsFor(db, [memberId]),
    db.selectFrom("member").select(["xp", "rank"]).where("id", "=", memberId).executeTakeFirstOrThrow(),
  ]);
  const xp = totals.get(memberId) ?? 0;
  expect({ xp: Number(row.xp), rank: row.rank }, "the member row keeps the ledger's sum and its rank").toEqual({
    xp,
    rank: rankFor(xp, levels.get(memberId)).id,
  });
  return xp;
}
