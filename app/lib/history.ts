/**
 * Edit history (issue 32): where a post's revisions are read, and the grace period after posting
 * in which an edit keeps no revision (a typo fixed at once is not history), as Discourse's is.
 */
export const EDIT_GRACE_MS = 5 * 60 * 1000;

export function historyPath(kind: string, id: number) {
  return `/history/${kind}/${id}`;
}
