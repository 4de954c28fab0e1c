/** Who blocked whom, as a post's viewer and its author stand (issue 31). */
export type MemberBlock = "blocked" | "blocked-by";

/** The line a collapsed post of a blocked member (or of one who blocked the viewer) shows, and what opens it. */
export const BLOCKED_LINE: Readonly<Record<MemberBlock, string>> = {
  blocked: "Hidden: you blocked this member.",
  "blocked-by": "Hidden: this member blocked you.",
};
export const SHOW_BLOCKED_POST = "Show the post";
