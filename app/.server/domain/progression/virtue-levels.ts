import type { Executor } from "../../db/executor";
import type { VirtueLevels } from "~/lib/ranks";
import { isVirtue, virtueLevel } from "~/lib/virtues";

export type { VirtueLevels };

/**
 * Virtue levels of many members in one query: per member and virtue, the number of distinct
 * challenges they completed that train it, turned into a level by `virtueLevel` (PRODUCT.md §3).
 * Every asked id gets an entry; a virtue never trained is absent (no badge is shown for it).
 */
export async function virtueLevelsFor(db: Executor, memberIds: readonly string[]): Promise<Map<string, VirtueLevels>> {
  const ids = [...new Set(memberIds)];
  const levels = new Map<string, VirtueLevels>(ids.map((id) => [id, {}]));
  if (ids.length === 0) return levels;
  const rows = await db
    .selectFrom("challenge_attempt as a")
    .innerJoin("challenge_virtue as v", "v.challenge_id", "a.challenge_id")
    .select(["a.member_id", "v.virtue", (eb) => eb.fn.count<number>("a.challenge_id").distinct().as("completed")])
    .where("a.member_id", "in", ids)
    .where("a.status", "=", "completed")
    .groupBy(["a.member_id", "v.virtue"])
    .execute();
  for (const row of rows) {
    if (!isVirtue(row.virtue)) continue;
    const level = virtueLevel(Number(row.completed));
    if (level > 0) levels.get(row.member_id)![row.virtue] = level;
  }
  return levels;
}
