import type { Viewer } from "../../context";
import type { Executor } from "../../db/executor";
import type { SearchKind } from "../../db/schema";
import { searchDocuments, type SearchHit, type SearchSort } from "../../db/search/search-index";
import { parseSearchQuery } from "../../db/search/search-query";
import { encodeSearchCursor, type SearchPageCursor } from "../../pagination";
import { isModerator } from "../accounts/roles";
import { toIso } from "~/lib/dates";
import type { SectionId } from "~/lib/domain-values";
import { profilePath } from "~/lib/members";
import { rankById } from "~/lib/ranks";
import { markedPieces, SEARCH_KINDS, type MarkedPiece, type SearchKindFilter } from "~/lib/search";
import { findProfileByHandle } from "../accounts/member-repository";
import { memberDirectory, type DirectoryMember } from "../accounts/directory-read-model";
import { postPlaces } from "../posts/post-places";
import { isPostKind } from "../posts/post-kinds";
import { authorsByIds } from "./search-repository";

/** Results on one page. */
export const SEARCH_PAGE_SIZE = 20;
/** Members shown above the posts when search looks everywhere. */
const MEMBERS_ALONGSIDE = 5;

export interface SearchFilters {
  kind: SearchKindFilter | null;
  section: SectionId | null;
  virtue: string | null;
  /** A member's handle. */
  author: string | null;
  sort: SearchSort;
  /** Only the viewer's bookmarks. */
  bookmarks: boolean;
}

export interface SearchResult {
  key: string;
  kind: SearchKind;
  /** "Reply", "Question"… */
  kindLabel: string;
  url: string;
  /** Its title, or the title of the discussion, question or creation it is under. */
  title: MarkedPiece[];
  /** Where it is: the section, or what it replies to. */
  place: string | null;
  excerpt: MarkedPiece[];
  author: { name: string; profile: string | null } | null;
  createdAt: string;
  /** Found only because a moderator searched. */
  hidden: boolean;
}

export interface MemberResult {
  name: string;
  handle: string;
  profile: string;
  /** The rank's name. */
  rank: string;
  bio: string | null;
}

export type SearchOutcome =
  | { status: "empty" }
  | { status: "no-author"; author: string }
  | { status: "sign-in" }
  | { status: "found"; results: SearchResult[]; members: MemberResult[]; next: string | null; includesHidden: boolean };

const KIND_ONE = Object.fromEntries(SEARCH_KINDS.map((k) => [k.id, k.one])) as Record<SearchKindFilter, string>;

/**
 * A page of search results (issue 30): what the index finds for these words and filters, best or
 * newest first, each with its place on the site and the words that matched marked; members whose
 * name holds the words alongside. Hidden posts only for moderators. /search is never kept (its
 * policy), so nothing here names a page tag.
 */
export async function searchResults(
  db: Executor,
  viewer: Viewer | null,
  query: string,
  filters: SearchFilters,
  after: SearchPageCursor | null,
): Promise<SearchOutcome> {
  const terms = parseSearchQuery(query);
  if (terms.length === 0) return { status: "empty" };
  // Bookmarks are a member's own.
  if (filters.bookmarks && !viewer) return { status: "sign-in" };
  const authorId = filters.author ? (await findProfileByHandle(db, filters.author))?.id : null;
  if (filters.author && !authorId) return { status: "no-author", author: filters.author };
  const includeHidden = isModerator(viewer);

  if (filters.kind === "member" && !filters.bookmarks) {
    const page = await memberDirectory(
      db,
      { name: query, rank: null, path: null, sort: "xp" },
      after?.kind === "member" ? { sort: "xp", xp: after.xp, handle: after.handle } : null,
      SEARCH_PAGE_SIZE,
    );
    const last = page.members[page.members.length - 1];
    const next = page.next && last ? encodeSearchCursor({ kind: "member", xp: last.xp, handle: last.handle }) : null;
    return { status: "found", results: [], members: page.members.map(memberResult), next, includesHidden: false };
  }

  // Members are in no bookmark: a search of one's bookmarks for members finds none.
  if (filters.kind === "member") return { status: "found", results: [], members: [], next: null, includesHidden: false };
  const hitCursor = after?.kind === "hit" ? { score: after.score, createdAt: after.at, id: after.id } : null;
  const onlyPosts = filters.section !== null || filters.virtue !== null || authorId !== null || filters.bookmarks;
  const [hits, members] = await Promise.all([
    searchDocuments(db, {
      terms,
      kinds: filters.kind ? [filters.kind] : null,
      section: filters.section,
      virtue: filters.virtue,
      authorId: authorId ?? null,
      bookmarkedBy: filters.bookmarks && viewer ? viewer.id : null,
      includeHidden,
      sort: filters.sort,
      after: hitCursor,
      limit: SEARCH_PAGE_SIZE + 1,
    }),
    // Members come first on the first page of a search everywhere, as names are what people look for most.
    filters.kind === null && !onlyPosts && !after
      ? memberDirectory(db, { name: query, rank: null, path: null, sort: "xp" }, null, MEMBERS_ALONGSIDE).then((p) => p.members)
      : Promise.resolve([]),
  ]);
  const shown = hits.slice(0, SEARCH_PAGE_SIZE);
  const last = shown[shown.length - 1];
  const next = hits.length > SEARCH_PAGE_SIZE && last ? encodeSearchCursor({ kind: "hit", score: last.score, at: toIso(last.createdAt), id: last.id }) : null;
  return { status: "found", results: await described(db, shown), members: members.map(memberResult), next, includesHidden: includeHidden };
}

function memberResult(m: DirectoryMember): MemberResult {
  return { name: m.name, handle: m.handle, profile: m.profile, rank: rankById(m.rank).label, bio: m.bio };
}

/** Each hit with its address, title and author: one query per kind of place, never one per hit. */
async function described(db: Executor, hits: readonly SearchHit[]): Promise<SearchResult[]> {
  const posts = hits.flatMap((h) => (isPostKind(h.kind) ? [{ kind: h.kind, id: h.refId }] : []));
  const [authors, places] = await Promise.all([authorsByIds(db, [...new Set(hits.flatMap((h) => (h.authorId ? [h.authorId] : [])))]), postPlaces(db, posts)]);
  const authorById = new Map(authors.map((a) => [a.id, a]));
  return hits.flatMap((hit): SearchResult[] => {
    const author = hit.authorId ? authorById.get(hit.authorId) : undefined;
    const base = {
      key: `${hit.kind}:${hit.refId}`,
      kind: hit.kind,
      kindLabel: KIND_ONE[hit.kind],
      excerpt: markedPieces(hit.excerpt),
      author: author ? { name: author.name, profile: profilePath(author.handle) } : null,
      createdAt: toIso(hit.createdAt),
      hidden: hit.hidden,
    };
    if (hit.kind === "challenge") return [{ ...base, url: `/challenges/${hit.refId}`, title: markedPieces(hit.title), place: "Challenges" }];
    if (hit.kind === "event") return [{ ...base, url: `/events/${hit.refId}`, title: markedPieces(hit.title), place: "Events" }];
    const place = places.get(base.key);
    if (!place) return [];
    // A reply, answer or comment has no title of its own: the title of what it is under, unmarked.
    const title: MarkedPiece[] = hit.title ? markedPieces(hit.title) : [[place.title, false]];
    return [{ ...base, url: place.url, title, place: place.where }];
  });
}
