import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Hits by time alone: the hourly pruning deletes every hit older than a day, whatever its key (an
 * IP that came once leaves its rows behind; `hit` only prunes the keys it counts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("rate_limit_hit_time_idx").on("rate_limit_hit").column("hit_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("rate_limit_hit_time_idx").execute();
}
