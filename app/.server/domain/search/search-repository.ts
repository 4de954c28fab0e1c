import type { Executor } from "../../db/executor";

/** What a page of search results shows besides the hits: names, places and titles, one query per kind. */

export async function authorsByIds(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom("member").select(["id", "name", "handle"]).where("id", "in", ids).execute();
}
