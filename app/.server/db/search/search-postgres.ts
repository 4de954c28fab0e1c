import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../executor";
import { tsQuery } from "./search-query";
import { MARK_END, MARK_START } from "~/lib/search";
import { rowFilters } from "./search-filters";
import { searchHit, type HitRow } from "./search-hits";
import { RANKED_WINDOW, type SearchHit, type SearchRequest } from "./search-types";

/**
 * PostgreSQL's answer (ADR 0063): the GIN index on the stored tsvector finds the rows,
 * ts_rank_cd ranks them (a title's words weigh A, a body's D), then the page's rows alone get
 * ts_headline's highlighted title and excerpt.
 *
 * As on SQLite, only the newest RANKED_WINDOW matches that pass the filters are ranked, and they are
 * found one of two ways, chosen here from the planner's own estimate of how many rows match:
 * - a common word's by walking the primary key backwards, checking each row, until the window is
 *   full: a few thousand rows, where the GIN index would hand over every one of its matches;
 * - a rarer word's from the GIN index, all of them, sorted by id.
 * The planner left to itself takes the walk far too often (it costs checking a row's tsvector at
 * almost nothing), and walks the whole table for a phrase of common words that are seldom side by
 * side. So the choice is made here, and a walk stops after a bounded number of rows, the GIN index
 * finding the rest.
 */

const HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=40, MinWords=15, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;
const TITLE_HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_END}, HighlightAll=true`;

/**
 * What one row costs read by the walk, against one match read through the GIN index (a random
 * heap page): measured at a million posts, 2 µs against 3.6 µs.
 */
const WALK_ROW_COST = 2;
const INDEX_ROW_COST = 3.6;
/** How far the walk may go past the rows it expects to read before the GIN index takes over. */
const WALK_SLACK = 3;
/**
 * The planner estimates a phrase as its words anywhere in the row; side by side they are far
 * fewer ("screen judo": 17,172 estimated, 239 found). A phrase is walked only if the walk would
 * pay with this share of the estimate.
 */
const PHRASE_SHARE = 0.1;

const COLUMNS = sql`d.id, d.kind, d.ref_id, d.parent_id, d.author_id, d.created_at, d.hidden, d.parent_hidden`;

export async function searchPostgres(db: Executor, request: SearchRequest): Promise<SearchHit[]> {
  const text = tsQuery(request.terms, request.match);
  const query = sql`to_tsquery('english', ${text})`;
  const where: RawBuilder<unknown>[] = [sql`d.document @@ q.query`];
  where.push(...rowFilters(request));
  const after = request.after;
  const relevance = request.sort === "relevance";
  // Newest first pages through every match: the window starts after the page before. By relevance
  // the window stays the same newest matches, and the cursor pages through their ranking.
  if (after && !relevance) {
    where.push(sql`(d.created_at < ${after.createdAt}::timestamptz or (d.created_at = ${after.createdAt}::timestamptz and d.id < ${after.id}))`);
  }
  const conditions = sql.join(where, sql` and `);
  const phrase = request.terms.some((t) => !t.negated && t.words.length > 1);
  const walk = await walkLength(db, query, phrase);
  // The window's rows, newest first: walked (then, past the walk, from the GIN index) or all from the GIN index.
  const window = walk
    ? sql`older as materialized (
          select ${COLUMNS} from search_document d, q
          where ${conditions} and d.id < (select id from search_document order by id desc offset ${walk - 1} limit 1)),
        hits as (
          select * from (
            (select ${COLUMNS} from (select * from search_document order by id desc limit ${walk}) d, q
              where ${conditions} order by d.id desc limit ${RANKED_WINDOW})
            union all
            (select * from older order by id desc limit ${RANKED_WINDOW})) found
          limit ${RANKED_WINDOW})`
    : sql`older as materialized (select ${COLUMNS} from search_document d, q where ${conditions}),
        hits as (select * from older order by id desc limit ${RANKED_WINDOW})`;
  // ts_rank_cd is a real: the cursor's score is compared as one, so the page's last row compares equal.
  const pastCursor = after && relevance ? sql`where (score < ${after.score}::real or (score = ${after.score}::real and id > ${after.id}))` : sql``;
  const scored = relevance
    ? sql`select hits.*, ts_rank_cd(d.document, q.query) as score from hits join search_document d on d.id = hits.id, q`
    : sql`select hits.*, 0::real as score from hits`;
  const order = relevance ? sql`score desc, id` : sql`created_at desc, id desc`;
  const { rows } = await sql<HitRow & { title: string | null; excerpt: string | null }>`with q as not materialized (select ${query} as query),
      ${window},
      scored as (${scored}),
      page as (select * from scored ${pastCursor} order by ${order} limit ${request.limit})
      select page.id, page.kind, page.ref_id, page.parent_id, page.author_id, page.created_at, page.hidden, page.parent_hidden, page.score,
        ts_headline('english', d.title, q.query, ${TITLE_HEADLINE}) as title,
        ts_headline('english', d.body, q.query, ${HEADLINE}) as excerpt
      from page join search_document d on d.id = page.id, q
      order by ${relevance ? sql`page.score desc, page.id` : sql`page.created_at desc, page.id desc`}`.execute(db);
  return rows.map((r) => searchHit(r, r));
}

/**
 * How many of the newest rows to walk for this query's window, or null to read its matches from the
 * GIN index: the walk when reading the rows it expects to pass (the window over the share of rows
 * that match) costs less than reading every match. The planner's estimate of the matches comes from
 * the column's statistics (ANALYZE), as its own choice would.
 */
async function walkLength(db: Executor, query: RawBuilder<unknown>, phrase: boolean): Promise<number | null> {
  const { rows: plan } = await sql<{ "QUERY PLAN": Array<{ Plan: { "Plan Rows": number } }> }>`
      explain (format json) select 1 from search_document d where d.document @@ ${query}`.execute(db);
  const total = await indexedRows(db);
  const estimate = Math.max(1, Number(plan[0]?.["QUERY PLAN"][0]?.Plan["Plan Rows"] ?? 1));
  // A table never analyzed says -1 (or 0): its matches are read from the index.
  if (total <= 0) return null;
  // The GIN index reads every row with the words; the walk reads rows until the window is full.
  const expected = (RANKED_WINDOW * total) / (phrase ? estimate * PHRASE_SHARE : estimate);
  return expected * WALK_ROW_COST < estimate * INDEX_ROW_COST ? Math.ceil(expected * WALK_SLACK) : null;
}

/**
 * The planner's count of the index's rows, read at most once a minute: it moves with ANALYZE, far
 * slower than searches come, and it only chooses between two ways to the same rows. A page that
 * searches (a discussion's related posts) then asks the database one thing less.
 */
let counted: { rows: number; at: number } | null = null;
const COUNT_FOR_MS = 60_000;

async function indexedRows(db: Executor): Promise<number> {
  if (counted && Date.now() - counted.at < COUNT_FOR_MS) return counted.rows;
  const { rows } = await sql<{ rows: number }>`select reltuples::float8 as rows from pg_class where oid = 'search_document'::regclass`.execute(db);
  const total = Number(rows[0]?.rows ?? 0);
  // A table not analyzed yet says -1 or 0 (its matches are then read from the index) until a minute on.
  counted = { rows: total, at: Date.now() };
  return total;
}
