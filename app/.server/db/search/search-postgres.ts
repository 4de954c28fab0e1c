import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../executor";
import { tsQuery } from "./search-query";
import { MARK_END, MARK_START } from "~/lib/search";
import { rowFilters } from "./search-filters";
import { searchHit, type HitRow } from "./search-hits";
import { RANKED_WINDOW, type SearchHit, type SearchRequest } from "./search-types";

/**
 * PostgreSQL's answer (ADR 0063, ADR 0076): the GIN index on the stored tsvector finds the rows,
 * ts_rank_cd ranks them (a title's words weigh A, a body's D), then the page's rows alone get
 * ts_headline's highlighted title and excerpt.
 *
 * As on SQLite, only the newest RANKED_WINDOW matches that pass the filters are ranked. What costs
 * is the table's rows (a random heap page each), never the index, so the newest matches are found
 * reading as few rows as may hold them, chosen from the planner's own estimate of the matches:
 * - a rare word's (a few window's worth of matches): all of them, from the GIN index;
 * - a word in a share of the posts: the GIN index's matches among the newest rows that should hold
 *   the window (its bitmap ANDed with the block range index's on id, so only those rows' pages are
 *   read), then among rows a few times further back, then the rest: each step runs only if the one
 *   before fell short;
 * - a very common word's: by walking the primary key backwards, checking each row, until the
 *   window is full (a bounded walk, the GIN index finding the rest).
 * A phrase is first narrowed by its pairs of neighbouring words (migration 0300): GIN keeps no
 * positions, and a phrase of common words would otherwise read every row holding both.
 * The steps partition the rows by id: however far off the estimate, the answer is the same.
 */

const HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=40, MinWords=15, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;
const TITLE_HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_END}, HighlightAll=true`;

/**
 * What the ways cost, in µs, measured at a million posts: a row checked by the walk 2; a match
 * read through the GIN index alone 3.6 (a random heap page); a GIN index entry put in a bitmap
 * 0.25; a match among the newest rows, found through the block range index (its page read whole
 * and each of its rows checked) 5.5.
 */
const WALK_ROW_COST = 2;
const INDEX_ROW_COST = 3.6;
const GIN_ENTRY_COST = 0.25;
const STEP_MATCH_COST = 5.5;
/** How far the walk may go past the rows it expects to read before the GIN index takes over. */
const WALK_SLACK = 3;
/** How many times the rows expected to hold the window the first step reads, and the second more. */
const STEP_SLACK = 3;
const SECOND_STEP = 8;
/**
 * The planner estimates a phrase as its words anywhere in the row; side by side they are far
 * fewer ("screen judo": 17,172 estimated, 239 found). A phrase whose pairs could not narrow it
 * (a stop word between its words) is walked only if the walk would pay with this share of the estimate.
 */
const PHRASE_SHARE = 0.1;

/** The index expression of migration 0300: a row's pairs of neighbouring lexemes. */
const ROW_PAIRS = sql`search_pairs(to_tsvector('english', d.title) || to_tsvector('english', d.body))`;

const COLUMNS = sql`d.id, d.kind, d.ref_id, d.parent_id, d.author_id, d.created_at, d.hidden, d.parent_hidden`;

/**
 * `way` is for the tests alone: each way must give the very answer the others give, and a test set
 * small enough to build is one the estimate would send to the GIN index every time.
 */
export async function searchPostgres(db: Executor, request: SearchRequest, way?: Way): Promise<SearchHit[]> {
  const text = tsQuery(request.terms, request.match);
  const query = sql`to_tsquery('english', ${text})`;
  const pairs = await phrasePairs(db, request);
  // Narrowed by its pairs, a phrase's rows are checked for the words themselves one by one: read
  // through the GIN index as well, the words would bring every row holding them into a bitmap
  // (19,000 for "screen judo"), and a lossy one makes each row's pairs be computed again.
  const where: RawBuilder<unknown>[] =
    pairs.length > 0 ? [sql`${ROW_PAIRS} @> ${sql.val(pairs)}::int[]`, sql`(d.document @@ q.query) is true`] : [sql`d.document @@ q.query`];
  where.push(...rowFilters(request));
  const after = request.after;
  const relevance = request.sort === "relevance";
  // Newest first pages through every match: the window starts after the page before. By relevance
  // the window stays the same newest matches, and the cursor pages through their ranking.
  if (after && !relevance) {
    where.push(sql`(d.created_at < ${after.createdAt}::timestamptz or (d.created_at = ${after.createdAt}::timestamptz and d.id < ${after.id}))`);
  }
  const conditions = sql.join(where, sql` and `);
  const narrowed = pairs.length > 0 || !request.terms.some((t) => !t.negated && t.words.length > 1);
  way ??= await wayToWindow(
    db,
    sql`select 1 from search_document d, (select ${query} as query) q where ${conditions}`,
    narrowed,
    after && !relevance ? after.id : null,
  );
  const newest = (range: RawBuilder<unknown>) =>
    sql`(select ${COLUMNS} from search_document d, q where ${conditions} and ${range} order by d.id desc limit ${RANKED_WINDOW})`;
  // The window's rows, newest first. Each branch of a `union all` under the limit runs only if the
  // ones before it returned fewer rows than the window.
  const window =
    way.kind === "walk"
      ? sql`hits as (
          select * from (
            (select ${COLUMNS} from (select * from search_document order by id desc limit ${way.rows}) d, q
              where ${conditions} order by d.id desc limit ${RANKED_WINDOW})
            union all
            ${newest(sql`d.id < (select id from search_document order by id desc offset ${way.rows - 1} limit 1)`)}) found
          limit ${RANKED_WINDOW})`
      : way.kind === "steps"
        ? sql`hits as (
          select * from (${sql.join(
            [
              newest(sql`d.id > ${way.first}`),
              ...(way.second < way.first ? [newest(sql`d.id <= ${way.first} and d.id > ${way.second}`)] : []),
              newest(sql`d.id <= ${way.second}`),
            ],
            sql` union all `,
          )}) found
          limit ${RANKED_WINDOW})`
        : sql`hits as (select ${COLUMNS} from search_document d, q where ${conditions} order by d.id desc limit ${RANKED_WINDOW})`;
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
 * The pairs of neighbouring words every match must hold, from the wanted phrases (a search's terms
 * all wanted; with "any" no one phrase is required). The configuration stems them and drops stop
 * words as it does a row's, so "sit in silence" has no pair (`sit <2> silenc`) and is not narrowed;
 * a phrase's last word, when a prefix, is in no pair. One short statement, only for a phrase.
 */
async function phrasePairs(db: Executor, request: SearchRequest): Promise<number[]> {
  const wanted = request.terms.filter((t) => !t.negated);
  if (request.match === "any" && wanted.length > 1) return [];
  const phrases = wanted.map((t) => (t.prefix ? t.words.slice(0, -1) : t.words)).filter((words) => words.length > 1);
  if (phrases.length === 0) return [];
  const { rows } = await sql<{ pairs: number[] | null }>`select search_pairs(to_tsvector('english', p)) as pairs
      from unnest(${sql.val(phrases.map((words) => words.join(" ")))}::text[]) p`.execute(db);
  return [...new Set(rows.flatMap((r) => r.pairs ?? []))];
}

export type Way = { kind: "index" } | { kind: "walk"; rows: number } | { kind: "steps"; first: number; second: number };

/**
 * How to find the window: from the planner's estimate of the matches (the column's statistics, as
 * its own choice would use) and the table's size, the cheapest of reading every match, walking the
 * newest rows, or the steps back from the newest id (the page before's, newest first).
 */
async function wayToWindow(db: Executor, matching: RawBuilder<unknown>, narrowed: boolean, before: number | null): Promise<Way> {
  const estimate = await estimatedMatches(db, matching);
  const { rows: total, newestId } = await indexSize(db);
  // A table never analyzed says -1 (or 0): its matches are read from the index.
  if (total <= 0 || estimate <= RANKED_WINDOW) return { kind: "index" };
  const share = (narrowed ? estimate : estimate * PHRASE_SHARE) / total;
  const expected = RANKED_WINDOW / share;
  const readAll = estimate * INDEX_ROW_COST;
  const walk = expected * WALK_ROW_COST;
  const span = Math.ceil(expected * STEP_SLACK);
  const steps = estimate * GIN_ENTRY_COST + RANKED_WINDOW * STEP_SLACK * STEP_MATCH_COST;
  if (walk < steps && walk < readAll && before === null) return { kind: "walk", rows: Math.ceil(expected * WALK_SLACK) };
  if (steps < readAll) {
    const from = before ?? newestId;
    // A second step as far back as most of the table would read it all through the block ranges,
    // a page per match with its every row checked: the GIN index alone reads it for less.
    const second = from - (span * SECOND_STEP < total / 2 ? span * SECOND_STEP : span);
    return { kind: "steps", first: from - span, second };
  }
  return { kind: "index" };
}

/**
 * The planner's estimate of a search's matches, kept a minute per statement and its values: it is
 * made from the column's statistics, which change only when the table is analyzed, and it only
 * chooses between ways to the same rows. A member's discussion page waits for its related posts'
 * estimate before their search (issue 29): one round trip fewer each time the same words come again.
 */
const estimates = new Map<string, { rows: number; at: number }>();
const ESTIMATES_KEPT = 1_000;

async function estimatedMatches(db: Executor, matching: RawBuilder<unknown>): Promise<number> {
  const compiled = matching.compile(db);
  const key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
  const known = estimates.get(key);
  if (known && Date.now() - known.at < COUNT_FOR_MS) return known.rows;
  const { rows: plan } = await sql<{ "QUERY PLAN": Array<{ Plan: { "Plan Rows": number } }> }>`explain (format json) ${matching}`.execute(db);
  const rows = Math.max(1, Number(plan[0]?.["QUERY PLAN"][0]?.Plan["Plan Rows"] ?? 1));
  // Oldest first out: a Map iterates in the order its keys were set.
  estimates.delete(key);
  if (estimates.size >= ESTIMATES_KEPT) estimates.delete(estimates.keys().next().value!);
  estimates.set(key, { rows, at: Date.now() });
  return rows;
}

/**
 * The planner's count of the index's rows and its newest id, read at most once a minute: they
 * only choose between ways to the same rows, and a newer id than the one read just widens the first
 * step. A page that searches (a discussion's related posts) then asks the database one thing less.
 */
let counted: { rows: number; newestId: number; at: number } | null = null;
const COUNT_FOR_MS = 60_000;

async function indexSize(db: Executor): Promise<{ rows: number; newestId: number }> {
  if (counted && Date.now() - counted.at < COUNT_FOR_MS) return counted;
  const { rows } = await sql<{ rows: number; newest: number | null }>`select reltuples::float8 as rows, (select max(id) from search_document) as newest
      from pg_class where oid = 'search_document'::regclass`.execute(db);
  // A table not analyzed yet says -1 or 0 (its matches are then read from the index) until a minute on.
  counted = { rows: Number(rows[0]?.rows ?? 0), newestId: Number(rows[0]?.newest ?? 0), at: Date.now() };
  return counted;
}
