/**
 * What search finds and how the page names it (issue 30), shared by the server and the page: the
 * filter's choices in order, and each kind's name on a result.
 */
export const SEARCH_KINDS = [
  { id: "discussion", label: "Discussions", one: "Discussion" },
  { id: "reply", label: "Replies", one: "Reply" },
  { id: "question", label: "Questions", one: "Question" },
  { id: "answer", label: "Answers", one: "Answer" },
  { id: "creation", label: "Creations", one: "Creation" },
  { id: "comment", label: "Comments", one: "Comment" },
  { id: "challenge", label: "Challenges", one: "Challenge" },
  { id: "event", label: "Events", one: "Event" },
  { id: "member", label: "Members", one: "Member" },
] as const;

export type SearchKindFilter = (typeof SEARCH_KINDS)[number]["id"];

/** The longest query read, in characters; a longer one is refused (400). */
export const QUERY_MAX_LENGTH = 200;

export const SEARCH_SORTS = [
  { id: "relevance", label: "Best match" },
  { id: "newest", label: "Newest" },
] as const;

/** Words between these were what the search matched; the page marks them, as text. */
export const MARK_START = "\u0002";
export const MARK_END = "\u0003";

/** A stretch of a result's text, and whether it is one of the words searched for. */
export type MarkedPiece = readonly [text: string, marked: boolean];

/** Text with marked words in pieces, for the page to wrap in <mark> without any HTML from the text. */
export function markedPieces(text: string): MarkedPiece[] {
  const pieces: MarkedPiece[] = [];
  let marked = false;
  let at = 0;
  for (let i = 0; i <= text.length; i++) {
    const char = text[i];
    if (i < text.length && char !== MARK_START && char !== MARK_END) continue;
    if (i > at) pieces.push([text.slice(at, i), marked]);
    if (char === MARK_START) marked = true;
    if (char === MARK_END) marked = false;
    at = i + 1;
  }
  return pieces;
}
