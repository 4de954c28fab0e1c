import type { Db } from "../connect";

/**
 * Nothing to take: our dialect begins every transaction IMMEDIATE, which holds the database's one
 * write lock from the first statement to the end (ADR 0003, ADR 0013), so every transaction that
 * counts and records is already alone.
 */
export async function lockKeys(_trx: Db, _keys: readonly string[]): Promise<void> {}
