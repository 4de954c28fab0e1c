/**
 * Drafts (issue 32): a member's half-written post is kept per place they write in, named the same
 * by the page (its editor's script) and by the posting pipeline (which removes it once posted).
 * Only new posts have drafts; an edit starts from the post itself.
 */
export type DraftKind = "reply" | "answer" | "comment" | "discussion" | "question" | "creation";

/** Where a new post of this kind, under this parent, is written: one draft each. */
export function draftPlace(kind: DraftKind, parentId: string | number | null): string {
  return kind === "question" || kind === "creation" ? `${kind}:new` : `${kind}:${parentId}`;
}

/** What a place key may be, as the drafts endpoint checks it. */
export const DRAFT_PLACE = /^(reply|answer|comment|discussion|question|creation):[a-z0-9-]{1,80}$/;
export const DRAFT_LABEL_MAX = 200;
/** How often the editor sends a changed draft to the server; the browser keeps it at once. */
export const DRAFT_SAVE_MS = 5_000;
