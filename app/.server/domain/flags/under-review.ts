import type { Viewer } from "../../context";
import type { Executor } from "../../db/executor";
import { isModerator } from "../accounts/roles";
import type { PostKind } from "../posts/post-kinds";
import type { ReviewState } from "~/lib/flags";
import { reviewStatesOf } from "./flag-repository";

/** How a post loaded with the hidden ones shows to this viewer. */
export interface HiddenView {
  /** Why it waits on /review, when it is hidden and does. */
  review: ReviewState | null;
  /** Shown in its place as "Hidden while the community reviews it", without its words. */
  veiled: boolean;
}

/**
 * Which of these posts a viewer sees, and how (issue 31): a post that shows, as it is; a post the
 * flags hid, veiled for everyone but its author and the moderators, so a reader knows something was
 * there and is being looked at; a first post waiting for approval, to its author and the
 * moderators only; a post a moderator hid, to the moderators only. Its author sees what the flags
 * hid or what waits for approval, and may edit it (`loadOwnPost`). One query, and none when nothing
 * here is hidden.
 */
export async function hiddenPostsView<R extends { id: number; author_id: string; hidden_at: unknown }>(
  db: Executor,
  viewer: Viewer | null,
  kind: PostKind,
  rows: readonly R[],
): Promise<Array<R & HiddenView>> {
  const hidden = rows.filter((r) => r.hidden_at !== null);
  const states = await reviewStatesOf(
    db,
    hidden.map((r) => ({ kind, id: r.id })),
  );
  const moderator = viewer !== null && isModerator(viewer);
  const shown: Array<R & HiddenView> = [];
  for (const row of rows) {
    if (row.hidden_at === null) {
      shown.push({ ...row, review: null, veiled: false });
      continue;
    }
    const review = states.get(`${kind}:${row.id}`) ?? null;
    if (moderator || (review !== null && viewer?.id === row.author_id)) shown.push({ ...row, review, veiled: false });
    else if (review === "flags") shown.push({ ...row, review, veiled: true });
  }
  return shown;
}

/** Whether the author may still change their hidden post: while it waits on /review. */
export async function authorMayChangeHidden(db: Executor, kind: PostKind, id: number) {
  return (await reviewStatesOf(db, [{ kind, id }])).size > 0;
}
