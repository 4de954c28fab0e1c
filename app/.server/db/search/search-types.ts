import type { SectionId } from "~/lib/domain-values";
import type { SearchKind } from "../schema";
import type { SearchTerm } from "./search-query";

/**
 * One question to the search index, as both engines answer it (ADR 0063): SQLite's FTS5 in
 * search-sqlite.ts, PostgreSQL's tsvector in search-postgres.ts, each the same signature, tested
 * with the same tests.
 */
export interface SearchRequest {
  terms: readonly SearchTerm[];
  /** Every wanted term (a search), or any of them, best first (related posts). */
  match?: "all" | "any";
  /** Leave this one out (a page's own post, among its related ones). */
  exclude?: { kind: SearchKind; id: number } | null;
  /** Only these kinds; all when null. */
  kinds: readonly SearchKind[] | null;
  section: SectionId | null;
  virtue: string | null;
  authorId: string | null;
  /** Only the posts this member bookmarked (issue 30: search limited to one's bookmarks). */
  bookmarkedBy: string | null;
  /** Hidden posts (and those under a hidden post) too: moderators only. */
  includeHidden: boolean;
  sort: SearchSort;
  /** The last hit of the page before, for the next page (keyset). */
  after: SearchCursor | null;
  limit: number;
}

export type SearchSort = "relevance" | "newest";

/**
 * How many matches, the newest that pass the filters, a search reads and ranks (ADR 0063). Every
 * match of a rare word is among them; a common word's best are its best among its newest this many,
 * and its pages by relevance end after them. Newest first pages on past them.
 */
export const RANKED_WINDOW = 500;

/** Where a page of hits ends: its score and time, and the row's id to break ties. */
export interface SearchCursor {
  score: number;
  createdAt: string;
  id: number;
}

/** Text with the words that matched between MARK_START and MARK_END (~/lib/search.ts). */
export type MarkedText = string;

export interface SearchHit {
  /** The index row's id (the cursor's tie-breaker). */
  id: number;
  kind: SearchKind;
  refId: number;
  parentId: number | null;
  authorId: string | null;
  createdAt: string;
  hidden: boolean;
  score: number;
  /** The title with its matching words marked ("" for replies, answers and comments). */
  title: MarkedText;
  /** The part of the body that matched best, its matching words marked. */
  excerpt: MarkedText;
}
