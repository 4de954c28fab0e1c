import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 30: bookmarks. One row per member and post (any kind of post), with the member's own note
 * and, if they asked for one, when to remind them; `reminded_at` says the reminder was sent.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  let table = db.schema.createTable("bookmark");
  table = pg
    ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("post_id", "integer", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("remind_at", ts)
    .addColumn("reminded_at", ts)
    .addColumn("created_at", ts, (c) => c.notNull())
    .addUniqueConstraint("bookmark_member_post_uq", ["member_id", "kind", "post_id"])
    .execute();
  // The member's list, newest first, as keyset pages.
  await db.schema.createIndex("bookmark_member_created_idx").on("bookmark").columns(["member_id", "created_at", "id"]).execute();
  // The reminder job's search: due and not yet sent.
  await db.schema.createIndex("bookmark_due_idx").on("bookmark").column("remind_at").where(sql.ref("reminded_at"), "is", null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("bookmark").execute();
}
