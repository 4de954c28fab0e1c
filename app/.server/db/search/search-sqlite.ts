import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../executor";
import { fts5Query } from "./search-query";
import { MARK_END, MARK_START } from "~/lib/search";
import { rowFilters } from "./search-filters";
import type { SearchHit, SearchRequest } from "./search-types";

/**
 * SQLite's answer (ADR 0063): FTS5 finds the rows, bm25 ranks them (a title's word counts five
 * times a body's), then the page's rows alone get their highlighted title and excerpt.
 */

const SCORE = sql<number>`bm25(search_fts, 5.0, 1.0)`;

export async function searchSqlite(db: Executor, request: SearchRequest): Promise<SearchHit[]> {
  const match = fts5Query(request.terms, request.match);
  const where: RawBuilder<unknown>[] = [sql`search_fts match ${match}`];
  where.push(...rowFilters(request));
  const after = request.after;
  // bm25 is lower for a better match: the best first, then the row's id.
  if (after && request.sort === "relevance") where.push(sql`(${SCORE} > ${after.score} or (${SCORE} = ${after.score} and d.id > ${after.id}))`);
  if (after && request.sort === "newest") where.push(sql`(d.created_at < ${after.createdAt} or (d.created_at = ${after.createdAt} and d.id < ${after.id}))`);
  const order = request.sort === "relevance" ? sql`score, d.id` : sql`d.created_at desc, d.id desc`;
  const { rows } = await sql<{
    id: number;
    kind: SearchHit["kind"];
    ref_id: number;
    parent_id: number | null;
    author_id: string | null;
    created_at: string;
    hidden: number;
    parent_hidden: number;
    score: number;
  }>`select d.id, d.kind, d.ref_id, d.parent_id, d.author_id, d.created_at, d.hidden, d.parent_hidden, ${SCORE} as score
      from search_fts join search_document d on d.id = search_fts.rowid
      where ${sql.join(where, sql` and `)}
      order by ${order}
      limit ${request.limit}`.execute(db);
  if (rows.length === 0) return [];
  // Marked only for the rows shown: highlighting every match before the limit would cost as much as the search.
  const marked = await sql<{ id: number; title: string; excerpt: string }>`
      select rowid as id, highlight(search_fts, 0, ${MARK_START}, ${MARK_END}) as title,
        snippet(search_fts, 1, ${MARK_START}, ${MARK_END}, ${"…"}, 40) as excerpt
      from search_fts where search_fts match ${match} and rowid in (${sql.join(rows.map((r) => r.id))})`.execute(db);
  const marks = new Map(marked.rows.map((m) => [Number(m.id), m]));
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    refId: Number(r.ref_id),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
    authorId: r.author_id,
    createdAt: r.created_at,
    hidden: r.hidden === 1 || r.parent_hidden === 1,
    score: Number(r.score),
    title: marks.get(Number(r.id))?.title ?? "",
    excerpt: marks.get(Number(r.id))?.excerpt ?? "",
  }));
}
