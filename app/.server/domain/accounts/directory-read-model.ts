import type { Executor } from "../../db/executor";
import { parseSearchQuery, wantedWords } from "../../db/search/search-query";
import { encodeDirectoryCursor, type DirectoryCursor } from "../../pagination";
import { toIso } from "~/lib/dates";
import type { PathId } from "~/lib/domain-values";
import type { RankId } from "~/lib/ranks";
import { directoryPage } from "./directory-repository";

/** Members on one page of the directory. */
export const DIRECTORY_PAGE_SIZE = 24;

/**
 * A member's path, as the directory filters by it: what their chosen interests lean to. Members pick
 * interests at join and in settings; meditation and philosophy are the monk's, fitness the
 * warrior's (creative expression belongs to both, so to neither filter).
 */
export const PATH_INTERESTS: Readonly<Record<PathId, readonly string[]>> = { monk: ["meditation", "philosophy"], warrior: ["fitness"] };

export interface DirectoryFilters {
  /** Words of a name or handle. */
  name: string;
  rank: RankId | null;
  path: PathId | null;
  sort: "xp" | "newest";
}

export interface DirectoryMember {
  name: string;
  handle: string;
  profile: string;
  rank: RankId;
  xp: number;
  joinedAt: string;
  bio: string | null;
  avatar: string | null;
}

/**
 * The members directory (issue 30): living members by name, rank and path, most XP or newest first,
 * in keyset pages. Its page is never kept (every join and every XP moves it), so it names no tag.
 */
export async function memberDirectory(db: Executor, filters: DirectoryFilters, after: DirectoryCursor | null, limit = DIRECTORY_PAGE_SIZE) {
  const rows = await directoryPage(db, {
    words: wantedWords(parseSearchQuery(filters.name)),
    rank: filters.rank,
    interests: filters.path ? PATH_INTERESTS[filters.path] : null,
    sort: filters.sort,
    after: after?.sort === filters.sort ? after : null,
    limit: limit + 1,
  });
  const members: DirectoryMember[] = rows.slice(0, limit).map((m) => ({
    name: m.name,
    handle: m.handle,
    profile: `/members/${m.handle}`,
    rank: m.rank as RankId,
    xp: Number(m.xp),
    joinedAt: toIso(m.created_at),
    bio: m.bio,
    avatar: m.avatar,
  }));
  const last = members[members.length - 1];
  const next =
    rows.length > limit && last
      ? encodeDirectoryCursor(
          filters.sort === "xp" ? { sort: "xp", xp: last.xp, handle: last.handle } : { sort: "newest", at: last.joinedAt, handle: last.handle },
        )
      : null;
  return { members, next };
}
