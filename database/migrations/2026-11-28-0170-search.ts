import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 30: site search (ADR 0063).
 * - `search_document`: one row per findable thing (a discussion, reply, question, answer, creation,
 *   comment, published challenge or event), its words as plain text, written in the transaction that
 *   writes the thing itself. `hidden` is the thing's own state, `parent_hidden` its discussion's,
 *   question's or creation's: a reply under a hidden discussion is as hidden as the discussion.
 * - PostgreSQL: a stored `tsvector` of the title (weight A) and the body (weight D) with a GIN index.
 * - SQLite: an FTS5 table over the same rows (external content), kept in step by triggers, so no
 *   writer can move one without the other.
 * The index starts empty: the server fills it on its first start after this (it needs the
 * application's Markdown-to-text, which a frozen migration must not import).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";

  let table = db.schema.createTable("search_document");
  table = pg
    ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("ref_id", "integer", (c) => c.notNull())
    .addColumn("parent_id", "integer")
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("body", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("author_id", "text")
    .addColumn("section", "text")
    // " discipline courage ": each virtue between spaces, so one LIKE finds one virtue.
    .addColumn("virtues", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("hidden", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("parent_hidden", "integer", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("search_document_subject_uq", ["kind", "ref_id"])
    .execute();
  // A parent hidden or restored moves its children's flag in one statement.
  await db.schema.createIndex("search_document_parent_idx").on("search_document").columns(["parent_id", "kind"]).execute();

  if (pg) {
    await sql`alter table search_document add column document tsvector generated always as
      (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'D')) stored`.execute(db);
    await sql`create index search_document_document_idx on search_document using gin (document)`.execute(db);
    return;
  }
  await sql`create virtual table search_fts using fts5(
      title, body, content='search_document', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
  await sql`create trigger search_document_ai after insert on search_document begin
      insert into search_fts (rowid, title, body) values (new.id, new.title, new.body);
    end`.execute(db);
  await sql`create trigger search_document_ad after delete on search_document begin
      insert into search_fts (search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
    end`.execute(db);
  // Only a change of the words touches the FTS table: hiding a discussion moves many replies' flags.
  await sql`create trigger search_document_au after update of title, body on search_document begin
      insert into search_fts (search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
      insert into search_fts (rowid, title, body) values (new.id, new.title, new.body);
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (!pg) await sql`drop table if exists search_fts`.execute(db);
  await db.schema.dropTable("search_document").execute();
}
