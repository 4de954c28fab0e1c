import { engineOf, type Db } from "./connect";
import { lockKeys as lockPostgres } from "./locks/postgres";
import { lockKeys as lockSqlite } from "./locks/sqlite";

/**
 * Makes "read a count, then record" one atomic step: until the transaction ends, no other
 * transaction that locks any of the same keys gets past this call (ADR 0013).
 */
export async function lockKeys(trx: Db, keys: readonly string[]): Promise<void> {
  if (!trx.isTransaction) throw new Error("lockKeys: call it inside a transaction");
  // A key this transaction holds already is held until it ends: no round trip to take it again
  // (a post's limits lock the member's write key, then count it).
  let held = heldBy.get(trx);
  if (!held) heldBy.set(trx, (held = new Set()));
  const wanted = keys.filter((key) => !held.has(key));
  if (wanted.length === 0) return;
  await (engineOf(trx) === "postgres" ? lockPostgres : lockSqlite)(trx, wanted);
  for (const key of wanted) held.add(key);
}

/** The keys each open transaction has locked (its object is dropped with it). */
const heldBy = new WeakMap<Db, Set<string>>();
