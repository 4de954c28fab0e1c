import { sql, type RawBuilder } from "kysely";
import type { SearchRequest } from "./search-types";

/**
 * The conditions on the index row (`d`) that both engines put beside their own full-text match:
 * visibility, kind, section, virtue, author, the page's own post, the member's bookmarks. Plain
 * SQL both engines read alike.
 */
export function rowFilters(request: SearchRequest): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [];
  if (!request.includeHidden) where.push(sql`d.hidden = 0 and d.parent_hidden = 0`);
  if (request.kinds) where.push(sql`d.kind in (${sql.join(request.kinds)})`);
  if (request.section) where.push(sql`d.section = ${request.section}`);
  if (request.virtue) where.push(sql`d.virtues like ${`% ${request.virtue} %`}`);
  if (request.authorId) where.push(sql`d.author_id = ${request.authorId}`);
  if (request.exclude) where.push(sql`not (d.kind = ${request.exclude.kind} and d.ref_id = ${request.exclude.id})`);
  if (request.bookmarkedBy) {
    where.push(sql`exists (select 1 from bookmark b where b.member_id = ${request.bookmarkedBy} and b.kind = d.kind and b.post_id = d.ref_id)`);
  }
  return where;
}
