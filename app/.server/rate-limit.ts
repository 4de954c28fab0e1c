import { engineOf, type Db } from "./db/connect";
import { lockKeys } from "./db/lock-keys";

export interface Limit {
  /** e.g. "newsletter:ip:1.2.3.4" */
  key: string;
  max: number;
  windowMs: number;
}

export type HitResult = { ok: true; hitIds: number[] } | { ok: false; retryMinutes: number };

/**
 * Counts requests per key in the database, so every app process shares the count (ARCHITECTURE.md,
 * scale-out). Returns the minutes to wait when any limit is reached; otherwise records the hit.
 * Counting and recording are one atomic step (ADR 0013): the keys are locked first, so parallel
 * requests cannot all read "one left" and all record. Given a transaction, it runs inside it and
 * the keys stay locked until that transaction ends; given the database, it opens its own.
 * Old hits of the same keys are pruned as we go.
 */
export async function hit(db: Db, limits: Limit[], now = new Date()): Promise<HitResult> {
  if (!db.isTransaction) return db.transaction().execute((trx) => hit(trx, limits, now));
  await lockKeys(
    db,
    limits.map((l) => l.key),
  );
  const retryMinutes = await minutesToWait(db, limits, now, { prune: true });
  if (retryMinutes > 0) return { ok: false, retryMinutes };
  const inserted = await db
    .insertInto("rate_limit_hit")
    .values(limits.map((l) => ({ key: l.key, hit_at: now.toISOString() })))
    .returning("id")
    .execute();
  return { ok: true, hitIds: inserted.map((r) => Number(r.id)) };
}

/**
 * Whether `hit` would refuse now, read without locking or recording anything: a cheap refusal
 * before expensive work (ADR 0043). Its answer may be stale a moment later, so the request that
 * goes on must still pass `hit` itself.
 */
export async function wouldRefuse(db: Db, limits: Limit[], now = new Date()): Promise<{ ok: true } | { ok: false; retryMinutes: number }> {
  const retryMinutes = await minutesToWait(db, limits, now);
  return retryMinutes > 0 ? { ok: false, retryMinutes } : { ok: true };
}

/**
 * The longest wait any full limit asks for, 0 when every one has room; hits older than the window
 * do not count, and with `prune` (keys locked) they are deleted too: on PostgreSQL in the same
 * statement as the count (a round trip fewer; the count reads the rows inside the window only, so
 * the deletion's not being visible to it changes nothing).
 */
async function minutesToWait(db: Db, limits: Limit[], now: Date, { prune = false } = {}): Promise<number> {
  let retryMinutes = 0;
  for (const limit of limits) {
    const since = new Date(now.getTime() - limit.windowMs).toISOString();
    const old = (q: Pick<Db, "deleteFrom">) => q.deleteFrom("rate_limit_hit").where("key", "=", limit.key).where("hit_at", "<=", since);
    const pruneApart = prune && engineOf(db) === "sqlite";
    if (pruneApart) await old(db).execute();
    const counted = prune && !pruneApart ? db.with("pruned", (q) => old(q).returning("id")) : db;
    const row = await counted
      .selectFrom("rate_limit_hit")
      .select([(eb) => eb.fn.countAll<number>().as("hits"), (eb) => eb.fn.min("hit_at").as("oldest")])
      .where("key", "=", limit.key)
      .where("hit_at", ">", since)
      .executeTakeFirst();
    if (row && Number(row.hits) >= limit.max && row.oldest) {
      // A request that read its clock before waiting for the lock can be older than the hit that
      // filled the window; the wait is never longer than the window itself.
      const wait = Math.min(limit.windowMs, new Date(row.oldest).getTime() + limit.windowMs - now.getTime());
      retryMinutes = Math.max(retryMinutes, Math.max(1, Math.ceil(wait / 60_000)));
    }
  }
  return retryMinutes;
}

/** Takes back hits that turned out not to count (e.g. a sign-in whose password was right). */
export async function forgetHits(db: Db, hitIds: number[]): Promise<void> {
  if (hitIds.length > 0) await db.deleteFrom("rate_limit_hit").where("id", "in", hitIds).execute();
}

export function tryAgainMessage(minutes: number) {
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** Forgets every hit recorded under one key (a right password clears its address's failures). */
export async function clearHits(db: Db, key: string): Promise<void> {
  await db.deleteFrom("rate_limit_hit").where("key", "=", key).execute();
}

/**
 * Deletes every hit recorded before `before`, whatever its key. `hit` prunes only the keys it
 * counts, so a key that never comes back (an IP seen once) would keep its rows for ever. Called
 * with a day ago, longer than any window (app/lib/limits.ts), it changes no count.
 */
export async function pruneHits(db: Db, before: Date): Promise<number> {
  const removed = await db.deleteFrom("rate_limit_hit").where("hit_at", "<", before.toISOString()).executeTakeFirst();
  return Number(removed.numDeletedRows);
}
