/**
 * What a deleted account leaves behind (ADR 0023): its posts stay, signed with this name, and its
 * handle becomes "deleted-<random>", a prefix no living member's handle can take (join avoids it).
 */
export const DELETED_MEMBER_NAME = "[deleted member]";
export const DELETED_HANDLE_PREFIX = "deleted-";

/** Handles are slugs (app/lib/slug.ts) with an optional "-n" suffix: anything else is no profile. */
const HANDLE = /^[a-z0-9][a-z0-9-]{0,79}$/;

export function isDeletedHandle(handle: string): boolean {
  return handle.startsWith(DELETED_HANDLE_PREFIX);
}

/** The profile page of a member, or null when there is none to link to (a deleted account). */
export function profilePath(handle: string): string | null {
  return isDeletedHandle(handle) ? null : `/members/${handle}`;
}

/** Whether a path segment could be a living member's handle at all (odd characters are a 404). */
export function isProfileHandle(value: string): boolean {
  return HANDLE.test(value) && !isDeletedHandle(value);
}

/**
 * What a profile lists of a member's contributions, each on a tab of its own (issue 30), in the
 * order the page shows them.
 */
export const CONTRIBUTION_TABS = [
  { id: "discussions", label: "Discussions", empty: "No discussions yet." },
  { id: "replies", label: "Replies", empty: "No replies yet." },
  { id: "questions", label: "Questions", empty: "No questions yet." },
  { id: "answers", label: "Answers", empty: "No answers yet." },
  { id: "creations", label: "Creations", empty: "No creations yet." },
  { id: "comments", label: "Comments", empty: "No comments yet." },
] as const;

export type ContributionTab = (typeof CONTRIBUTION_TABS)[number]["id"];

export function isContributionTab(value: unknown): value is ContributionTab {
  return CONTRIBUTION_TABS.some((t) => t.id === value);
}
