import { readsFrom, tag } from "../../cache/page-tags";
import { isRankId, type RankId } from "~/lib/ranks";

export interface AuthorRef {
  name: string;
  handle: string;
  rank: RankId;
  /** Their picture's base name (ADR 0072); null shows their initials. */
  avatar: string | null;
}

/**
 * The author columns withAuthors gathers, selected through a join of `member` on the post's author
 * (beside its `author_id`): every list and page that shows who wrote something reads these.
 */
export const AUTHOR_COLUMNS = [
  "member.name as author_name",
  "member.handle as author_handle",
  "member.rank as author_rank",
  "member.avatar as author_avatar",
] as const;

/**
 * Gathers each row's author (name, handle, rank, picture) into one object. The rank is the member row's own
 * (`member.rank`, kept by the XP ledger's transaction, ADR 0027), selected by the same join that
 * gives the name and handle, so a list of authors costs no query of its own.
 * The page then shows each author, so it reads their member tag (a new name, rank or picture
 * invalidates it).
 */
export function withAuthors<T extends { author_id: string; author_name: string; author_handle: string; author_rank: string; author_avatar: string | null }>(
  rows: T[],
): (Omit<T, "author_name" | "author_handle" | "author_rank" | "author_avatar"> & { author: AuthorRef })[] {
  readsFrom(...rows.map((r) => tag.member(r.author_id)));
  return rows.map(({ author_name, author_handle, author_rank, author_avatar, ...rest }) => ({
    ...rest,
    author: { name: author_name, handle: author_handle, rank: storedRank(author_rank), avatar: author_avatar },
  }));
}

/** A stored rank id as the type the pages use; a value no rank has (never written) reads as the first rank. */
export function storedRank(id: string): RankId {
  return isRankId(id) ? id : "initiate";
}
