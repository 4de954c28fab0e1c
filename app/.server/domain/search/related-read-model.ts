import { readsFrom, tag } from "../../cache/page-tags";
import type { Executor } from "../../db/executor";
import { searchDocuments, type SearchHit, type SearchRequest } from "../../db/search/search-index";
import type { SearchKind } from "../../db/schema";
import { aboutTerms } from "../../db/search/search-query";
import type { SectionId } from "~/lib/domain-values";
import { markedPieces } from "~/lib/search";
import { postKey, postPlaces } from "../posts/post-places";

/** How many related posts a page lists. */
export const RELATED_SIZE = 5;

export interface RelatedPost {
  title: string;
  url: string;
}

/** The area whose related lists a post is in: a Forum section, the Council, the Forge. */
export type RelatedArea = { kind: "discussion"; section: SectionId } | { kind: "question" } | { kind: "creation" };

const areaTag = (area: RelatedArea) => tag.related(area.kind === "discussion" ? tag.section(area.section) : area.kind === "question" ? "council" : "forge");

/**
 * Up to five posts of the same kind (and Forum section) whose words are nearest the post's title
 * (issue 30), from the search index: any of its words, best first, never itself, never hidden. The
 * page reads the area's `related` tag, which a post of that area written, edited, deleted, hidden
 * or restored moves (the posting pipeline's page tags), so a kept page's list is the database's.
 */
export async function relatedPosts(db: Executor, area: RelatedArea, id: number, title: string): Promise<RelatedPost[]> {
  readsFrom(areaTag(area));
  const hits = await nearestByTitle(db, title, {
    kind: area.kind,
    exclude: { kind: area.kind, id },
    section: area.kind === "discussion" ? area.section : null,
  });
  const places = await postPlaces(
    db,
    hits.map((h) => ({ kind: area.kind, id: h.refId })),
  );
  return hits.flatMap((h) => {
    const place = places.get(postKey({ kind: area.kind, id: h.refId }));
    return place && !place.deleted && !place.hidden ? [{ title: place.title, url: place.url }] : [];
  });
}

/**
 * Questions already asked whose words are nearest a title being written (issue 30): the ask form
 * shows them while the title is typed, and once more on submit when they were not seen.
 */
export async function similarQuestions(db: Executor, title: string): Promise<RelatedPost[]> {
  const hits = await nearestByTitle(db, title, { kind: "question", exclude: null, section: null });
  return hits.map((h) => ({ title: textOf(h.title), url: `/council/${h.refId}` }));
}

/**
 * The shown posts of one kind (and section) whose words are nearest a title: any of its words, best
 * first, never a hidden one. None when the title has no word worth searching for.
 */
async function nearestByTitle(
  db: Executor,
  title: string,
  { kind, exclude, section }: { kind: SearchKind; exclude: SearchRequest["exclude"]; section: SectionId | null },
): Promise<SearchHit[]> {
  const terms = aboutTerms(title);
  if (terms.length === 0) return [];
  return searchDocuments(db, {
    terms,
    match: "any",
    kinds: [kind],
    exclude,
    section,
    virtue: null,
    authorId: null,
    bookmarkedBy: null,
    includeHidden: false,
    sort: "relevance",
    after: null,
    limit: RELATED_SIZE,
  });
}

/** A marked title as plain text. */
const textOf = (marked: string) =>
  markedPieces(marked)
    .map(([text]) => text)
    .join("");
