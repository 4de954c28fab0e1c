import { sql } from "kysely";
import type { Db } from "../connect";

/**
 * Holds a transaction-scoped advisory lock per key until the transaction ends (ADR 0013). Keys are
 * hashed to 64 bits (a collision only makes two keys wait for each other) and taken in sorted
 * order, so two transactions that want overlapping keys cannot deadlock.
 */
export async function lockKeys(trx: Db, keys: readonly string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }
}
