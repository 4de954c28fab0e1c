import { PostgresAdapter, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 32: a member's half-written post, one per place they write in (a discussion's reply box,
 * a question's answer box, the ask form…), kept every few seconds while they type, so that a closed
 * tab or a lost connection loses nothing. Removed when the post is made or the draft discarded.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? "timestamptz" : "text";
  await db.schema
    .createTable("draft")
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("place", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull())
    .addPrimaryKeyConstraint("draft_pk", ["member_id", "place"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("draft").execute();
}
