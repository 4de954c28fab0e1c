import { engineOf } from "../connect";
import type { Executor } from "../executor";
import { searchPostgres } from "./search-postgres";
import { searchSqlite } from "./search-sqlite";
import type { SearchHit, SearchRequest } from "./search-types";

export type { SearchCursor, SearchHit, SearchRequest, SearchSort } from "./search-types";

/** The hits of one page, best first (or newest first), with their words marked. */
export function searchDocuments(db: Executor, request: SearchRequest): Promise<SearchHit[]> {
  if (request.terms.length === 0) return Promise.resolve([]);
  return (engineOf(db) === "postgres" ? searchPostgres : searchSqlite)(db, request);
}
