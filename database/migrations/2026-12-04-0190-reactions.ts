import { PostgresAdapter, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 31: reactions on every kind of post. One row per member, post and reaction (the primary key
 * is what makes a repeated reaction change nothing); the counts a page shows are kept on write in
 * `reaction_count`, one row per post and reaction, so no page counts rows. A member's own reactions
 * are looked up by member and time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  await db.schema
    .createTable("reaction")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("post_id", "integer", (c) => c.notNull())
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("reaction", "text", (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull())
    .addPrimaryKeyConstraint("reaction_pk", ["kind", "post_id", "member_id", "reaction"])
    .execute();
  await db.schema.createIndex("reaction_member_created_idx").on("reaction").columns(["member_id", "created_at"]).execute();
  await db.schema
    .createTable("reaction_count")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("post_id", "integer", (c) => c.notNull())
    .addColumn("reaction", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("reaction_count_pk", ["kind", "post_id", "reaction"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("reaction_count").execute();
  await db.schema.dropTable("reaction").execute();
}
