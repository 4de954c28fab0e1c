import type { Db } from "../../db/connect";
import { readsFrom, tag } from "../../cache/page-tags";
import type { RankId } from "~/lib/ranks";
import { ranksOf } from "./progression-service";

export interface AuthorRef {
  name: string;
  handle: string;
  rank: RankId;
}

/**
 * Adds each row's author (name, handle, rank) in one query for all the ranks, whatever the number
 * of rows: lists never query per row. The page then shows each author, so it reads their member tag
 * (a new name or rank invalidates it).
 */
export async function withAuthors<T extends { author_id: string; author_name: string; author_handle: string }>(
  db: Db,
  rows: T[],
): Promise<(Omit<T, "author_name" | "author_handle"> & { author: AuthorRef })[]> {
  readsFrom(...rows.map((r) => tag.member(r.author_id)));
  const ranks = await ranksOf(
    db,
    rows.map((r) => r.author_id),
  );
  return rows.map(({ author_name, author_handle, ...rest }) => ({
    ...rest,
    author: { name: author_name, handle: author_handle, rank: ranks.get(rest.author_id)!.id },
  }));
}
