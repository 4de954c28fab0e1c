import { sql, type RawBuilder } from "kysely";
import { toIso } from "~/lib/dates";
import type { Executor } from "../executor";
import { tsQuery } from "./search-query";
import { MARK_END, MARK_START } from "~/lib/search";
import { rowFilters } from "./search-filters";
import type { SearchHit, SearchRequest } from "./search-types";

/**
 * PostgreSQL's answer (ADR 0063): the GIN index on the stored tsvector finds the rows,
 * ts_rank_cd ranks them (a title's words weigh A, a body's D), then the page's rows alone get
 * ts_headline's highlighted title and excerpt.
 */

const SCORE = sql<number>`ts_rank_cd(d.document, q.query)`;
const HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=40, MinWords=15, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;
const TITLE_HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_END}, HighlightAll=true`;

export async function searchPostgres(db: Executor, request: SearchRequest): Promise<SearchHit[]> {
  const query = sql`to_tsquery('english', ${tsQuery(request.terms, request.match)})`;
  const where: RawBuilder<unknown>[] = [sql`d.document @@ q.query`];
  where.push(...rowFilters(request));
  const after = request.after;
  // ts_rank_cd is a real: the cursor's score is compared as one, so the page's last row compares equal.
  if (after && request.sort === "relevance") {
    where.push(sql`(${SCORE} < ${after.score}::real or (${SCORE} = ${after.score}::real and d.id > ${after.id}))`);
  }
  if (after && request.sort === "newest") {
    where.push(sql`(d.created_at < ${after.createdAt}::timestamptz or (d.created_at = ${after.createdAt}::timestamptz and d.id < ${after.id}))`);
  }
  const order = request.sort === "relevance" ? sql`score desc, d.id` : sql`d.created_at desc, d.id desc`;
  const { rows } = await sql<{
    id: number;
    kind: SearchHit["kind"];
    ref_id: number;
    parent_id: number | null;
    author_id: string | null;
    created_at: Date | string;
    hidden: number;
    parent_hidden: number;
    score: number;
    title: string;
    excerpt: string;
  }>`with q as (select ${query} as query),
      page as (
        select d.id, d.kind, d.ref_id, d.parent_id, d.author_id, d.created_at, d.hidden, d.parent_hidden, d.title, d.body, ${SCORE} as score
        from search_document d, q
        where ${sql.join(where, sql` and `)}
        order by ${order}
        limit ${request.limit})
      select page.id, page.kind, page.ref_id, page.parent_id, page.author_id, page.created_at, page.hidden, page.parent_hidden, page.score,
        ts_headline('english', page.title, q.query, ${TITLE_HEADLINE}) as title,
        ts_headline('english', page.body, q.query, ${HEADLINE}) as excerpt
      from page, q
      order by ${request.sort === "relevance" ? sql`page.score desc, page.id` : sql`page.created_at desc, page.id desc`}`.execute(db);
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    refId: Number(r.ref_id),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
    authorId: r.author_id,
    createdAt: toIso(r.created_at),
    hidden: Number(r.hidden) === 1 || Number(r.parent_hidden) === 1,
    score: Number(r.score),
    title: r.title ?? "",
    excerpt: r.excerpt ?? "",
  }));
}
