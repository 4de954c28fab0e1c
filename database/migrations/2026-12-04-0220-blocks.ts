import { PostgresAdapter, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 31: a member blocks another. Neither sees the other's posts (collapsed, expandable),
 * neither is notified of the other, and neither replies to the other's discussions or comments on
 * the other's creations. One row per blocker and blocked member.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? "timestamptz" : "text";
  await db.schema
    .createTable("member_block")
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("blocked_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("created_at", ts, (c) => c.notNull())
    .addPrimaryKeyConstraint("member_block_pk", ["member_id", "blocked_id"])
    .execute();
  // "Who blocked this member": the other direction of every check.
  await db.schema.createIndex("member_block_blocked_idx").on("member_block").columns(["blocked_id", "member_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("member_block").execute();
}
