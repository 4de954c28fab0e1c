import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 30's search speed on PostgreSQL (ADR 0076): phrases, and the newest rows.
 *
 * Phrases. GIN keeps no positions: a phrase such as
 * "screen judo" read every row holding both words (19,000 at a million posts) to find the 239 where
 * they stand side by side. Each row's pairs of neighbouring words (their lexemes, as the document's
 * positions give them) are now indexed too, as hashes: a phrase looks up its own pairs, and only
 * the rows holding all of them are checked for the phrase itself, so a hash that two pairs share
 * costs a check, never a wrong answer.
 *
 * An expression index rather than a column: the pairs are read from the index alone, and the rows
 * stay as narrow as the newest-first walk wants them. SQLite's FTS5 keeps positions already.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // The lexemes at positions p and p + 1, as the text-search configuration made them: the same
  // function makes a phrase's pairs from its words (search-postgres.ts), so both sides agree.
  await sql`create function search_pairs(document tsvector) returns int[]
      language sql immutable strict parallel safe
      as $$
        select coalesce(array_agg(distinct hashtext(a.lexeme || ' ' || b.lexeme)), '{}')
        from (select lexeme, unnest(positions) as at from unnest(document)) a
        join (select lexeme, unnest(positions) as at from unnest(document)) b on b.at = a.at + 1
      $$`.execute(db);
  // The same words in the same positions as the stored document (its weights change no position).
  await sql`create index search_document_pairs_idx on search_document
      using gin (search_pairs(to_tsvector('english', title) || to_tsvector('english', body)))`.execute(db);
  // The newest rows a search steps back through, as a bitmap to AND with the GIN index's: the
  // rows are written in id order, so a block range index is a few pages where the primary key's
  // bitmap of 200,000 ids took 15 ms. New ranges are summarized as they fill.
  await sql`create index search_document_id_brin on search_document using brin (id) with (autosummarize = on)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop index search_document_id_brin`.execute(db);
  await sql`drop index search_document_pairs_idx`.execute(db);
  await sql`drop function search_pairs(tsvector)`.execute(db);
}
