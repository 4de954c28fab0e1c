import type { Db } from "./db/connect";

export interface Limit {
  /** e.g. "newsletter:ip:1.2.3.4" */
  key: string;
  max: number;
  windowMs: number;
}

/**
 * Counts requests per key in the database, so every app process shares the count (ARCHITECTURE.md,
 * scale-out). Returns the minutes to wait when any limit is reached; otherwise records the hit.
 * Old hits of the same keys are pruned as we go.
 */
export async function hit(db: Db, limits: Limit[], now = new Date()): Promise<{ ok: true } | { ok: false; retryMinutes: number }> {
  return db.transaction().execute(async (trx) => {
    let retryMinutes = 0;
    for (const limit of limits) {
      const since = new Date(now.getTime() - limit.windowMs).toISOString();
      await trx.deleteFrom("rate_limit_hit").where("key", "=", limit.key).where("hit_at", "<=", since).execute();
      const row = await trx
        .selectFrom("rate_limit_hit")
        .select([(eb) => eb.fn.countAll<number>().as("hits"), (eb) => eb.fn.min("hit_at").as("oldest")])
        .where("key", "=", limit.key)
        .executeTakeFirst();
      if (row && Number(row.hits) >= limit.max && row.oldest) {
        const wait = new Date(row.oldest).getTime() + limit.windowMs - now.getTime();
        retryMinutes = Math.max(retryMinutes, Math.max(1, Math.ceil(wait / 60_000)));
      }
    }
    if (retryMinutes > 0) return { ok: false as const, retryMinutes };
    await trx
      .insertInto("rate_limit_hit")
      .values(limits.map((l) => ({ key: l.key, hit_at: now.toISOString() })))
      .execute();
    return { ok: true as const };
  });
}

export function tryAgainMessage(minutes: number) {
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
