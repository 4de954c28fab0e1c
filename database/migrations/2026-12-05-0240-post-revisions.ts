import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 32: a post's edit history. Each edit made after the grace period keeps the version it
 * replaced (its title, if the kind has one, and its Markdown), when that version was written and
 * when it was replaced, and the words that edit removed and added, as markup made when it was
 * written (the diff depends only on the two texts).
 */
const KINDS = ["discussion", "reply", "question", "answer", "creation", "comment"];

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  let table = db.schema.createTable("post_revision");
  table = pg
    ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in (${sql.join(KINDS.map((k) => sql.lit(k)))})`))
    .addColumn("post_id", "integer", (c) => c.notNull())
    .addColumn("title", "text")
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("written_at", ts, (c) => c.notNull())
    .addColumn("replaced_at", ts, (c) => c.notNull())
    .addColumn("diff_html", "text", (c) => c.notNull())
    .execute();
  // A post's history, in the order it was written.
  await db.schema.createIndex("post_revision_post_idx").on("post_revision").columns(["kind", "post_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("post_revision").execute();
}
