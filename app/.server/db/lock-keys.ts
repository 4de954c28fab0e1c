import { engineOf, type Db } from "./connect";
import { lockKeys as lockPostgres } from "./locks/postgres";
import { lockKeys as lockSqlite } from "./locks/sqlite";

/**
 * Makes "read a count, then record" one atomic step: until the transaction ends, no other
 * transaction that locks any of the same keys gets past this call (ADR 0013).
 */
export async function lockKeys(trx: Db, keys: readonly string[]): Promise<void> {
  if (!trx.isTransaction) throw new Error("lockKeys: call it inside a transaction");
  await (engineOf(trx) === "postgres" ? lockPostgres : lockSqlite)(trx, keys);
}
