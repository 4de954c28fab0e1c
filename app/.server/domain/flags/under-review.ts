import type { Viewer } from "../../context";
import type { Executor } from "../../db/executor";
import { isModerator } from "../accounts/roles";
import type { PostKind } from "../posts/post-kinds";
import { toIso } from "~/lib/dates";
import { hiddenBadgeText, reviewNoteText, type ReviewState } from "~/lib/flags";
import type { AuthorRef } from "../progression/authors";
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

/** A post of a thread as hiddenPostsView let it through, with its author gathered (withAuthors). */
interface ShownPost extends HiddenView {
  id: number;
  body: string;
  body_html: string;
  created_at: string | Date;
  edited_at: unknown;
  deleted_at: unknown;
  hidden_at: unknown;
  author_id: string;
  author: AuthorRef;
}

/**
 * What a page shows of a post in a thread (a discussion's opening post and replies, answers,
 * comments): its words unless deleted or veiled, its Markdown to its author alone (the edit form),
 * no history link on a veiled or deleted one (its history is not the reader's to read), why it is hidden and
 * the badge that says so, and whose it is.
 */
export function postAsShown(post: ShownPost, viewer: Viewer | null) {
  const mine = viewer?.id === post.author_id;
  return {
    id: post.id,
    html: post.deleted_at || post.veiled ? null : post.body_html,
    body: mine && !post.deleted_at ? post.body : null,
    createdAt: toIso(post.created_at),
    edited: post.edited_at !== null && !post.veiled && post.deleted_at === null,
    deleted: post.deleted_at !== null,
    hidden: post.hidden_at !== null,
    review: post.review,
    veiled: post.veiled,
    note: mine ? reviewNoteText(post.review) : null,
    badge: hiddenBadgeText({ hidden: post.hidden_at !== null, review: post.review, veiled: post.veiled }),
    author: post.author,
    authorId: post.author_id,
    mine,
  };
}

/** Whether the author may still change their hidden post: while it waits on /review. */
export async function authorMayChangeHidden(db: Executor, kind: PostKind, id: number) {
  return (await reviewStatesOf(db, [{ kind, id }])).size > 0;
}
