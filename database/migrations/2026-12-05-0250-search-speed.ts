import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 30's search speed at a million posts (ADR 0063).
 * - The index is emptied, and the server's next start fills it again (as after 0170): the rebuild
 *   now writes the rows oldest first, so that their ids follow their time, and search walks the
 *   newest matches by id. The rows the first rebuild wrote went in kind by kind.
 * - SQLite: the FTS5 table is made again with prefix indexes of 2 to 5 characters. Without them
 *   `medit*` merges the lists of every word beginning so, at each search and again for each row
 *   marked; with them it reads one list, as a word does.
 * - PostgreSQL: the tsvector stays in the row, the body goes out of line when a row is too long.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`truncate search_document`.execute(db);
    // A long post's row is over the 2 kB PostgreSQL moves out of line: it moved (and compressed) the
    // tsvector, its largest column, so that every match checked in it read two more pages and
    // decompressed it. The body goes out instead (only the page's rows read it, for their excerpt).
    await sql`alter table search_document alter column body set storage external`.execute(db);
    await sql`alter table search_document alter column document set storage main`.execute(db);
    return;
  }
  await remakeFts(db, `, prefix='2 3 4 5'`);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`truncate search_document`.execute(db);
    await sql`alter table search_document alter column body set storage extended`.execute(db);
    await sql`alter table search_document alter column document set storage extended`.execute(db);
    return;
  }
  await remakeFts(db, "");
}

/** The FTS5 table and its triggers as 0170 made them, with these options; the index left empty. */
async function remakeFts(db: Kysely<any>, options: string) {
  // The triggers go first: emptying the rows would otherwise remove each one's words, one at a time.
  for (const trigger of ["search_document_ai", "search_document_ad", "search_document_au"]) {
    await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  }
  await sql`drop table if exists search_fts`.execute(db);
  await sql`delete from search_document`.execute(db);
  await sql`create virtual table search_fts using fts5(
      title, body, content='search_document', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'${sql.raw(options)})`.execute(db);
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
