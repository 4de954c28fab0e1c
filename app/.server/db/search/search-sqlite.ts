import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../executor";
import { fts5Query } from "./search-query";
import { MARK_END, MARK_START } from "~/lib/search";
import { rowFilters } from "./search-filters";
import { searchHit, type HitRow } from "./search-hits";
import { RANKED_WINDOW, type SearchHit, type SearchRequest } from "./search-types";

/**
 * SQLite's answer (ADR 0063): FTS5 finds the rows, bm25 ranks them (a title's word counts five
 * times a body's), then the page's rows alone get their highlighted title and excerpt.
 *
 * The matches are walked newest first (the index row's id follows its time) and only the first
 * RANKED_WINDOW that pass the filters are read and ranked: a common word matches hundreds of
 * thousands of rows at a million posts, and scoring, joining and sorting every one of them was what
 * made a search slow. A rare word's matches are all in the window, so its ranking is exact.
 */

const SCORE = sql<number>`bm25(search_fts, 5.0, 1.0)`;

export async function searchSqlite(db: Executor, request: SearchRequest): Promise<SearchHit[]> {
  const match = fts5Query(request.terms, request.match);
  const where: RawBuilder<unknown>[] = [sql`search_fts match ${match}`];
  where.push(...rowFilters(request));
  const after = request.after;
  const relevance = request.sort === "relevance";
  // Newest first pages through every match: the window starts after the page before. By relevance
  // the window stays the same newest matches, and the cursor pages through their ranking.
  if (after && !relevance) where.push(sql`(d.created_at < ${after.createdAt} or (d.created_at = ${after.createdAt} and d.id < ${after.id}))`);
  // bm25 is lower for a better match: the best first, then the row's id.
  const pastCursor = after && relevance ? sql`where (score > ${after.score} or (score = ${after.score} and id > ${after.id}))` : sql``;
  const order = relevance ? sql`score, id` : sql`created_at desc, id desc`;
  // Newest first needs no score: bm25 counts every match of each word once per query for its weight.
  const { rows } = await sql<HitRow>`select * from (
        select d.id, d.kind, d.ref_id, d.parent_id, d.author_id, d.created_at, d.hidden, d.parent_hidden, ${relevance ? SCORE : sql`0`} as score
        from search_fts join search_document d on d.id = search_fts.rowid
        where ${sql.join(where, sql` and `)}
        order by search_fts.rowid desc
        limit ${RANKED_WINDOW})
      ${pastCursor}
      order by ${order}
      limit ${request.limit}`.execute(db);
  if (rows.length === 0) return [];
  // Marked only for the rows shown: highlighting every match before the limit would cost as much as the search.
  const marked = await sql<{ id: number; title: string; excerpt: string }>`
      select rowid as id, highlight(search_fts, 0, ${MARK_START}, ${MARK_END}) as title,
        snippet(search_fts, 1, ${MARK_START}, ${MARK_END}, ${"…"}, 40) as excerpt
      from search_fts where search_fts match ${match} and rowid in (${sql.join(rows.map((r) => r.id))})`.execute(db);
  const marks = new Map(marked.rows.map((m) => [Number(m.id), m]));
  return rows.map((r) => searchHit(r, marks.get(Number(r.id))));
}
