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
