import { BLOCKED_LINE, SHOW_BLOCKED_POST, type MemberBlock } from "~/lib/blocks";
import { tag, wrote } from "../../cache/page-tags";
import type { AppServices, Viewer } from "../../context";
import type { Executor } from "../../db/executor";
import { isModerator } from "../accounts/roles";
import { fail, type Outcome } from "../outcome";
import { blocksAmong, isBlocking, setBlock } from "./block-repository";

/**
 * Blocking (issue 31): a member blocks another. Neither sees the other's posts (collapsed with a
 * line that opens them), neither is told of the other's mentions, replies or reactions, and neither
 * replies to the other's discussions or comments on the other's creations. Moderators cannot be
 * blocked: they must be able to reach everyone. A block changes what both members' own pages show,
 * so it names both their viewer tags (ADR 0040).
 */
export const BLOCK_MESSAGES = {
  self: "You cannot block yourself.",
  moderator: "Moderators cannot be blocked.",
  missing: "Member not found",
  reply: "You cannot reply here: one of you has blocked the other.",
  comment: "You cannot comment here: one of you has blocked the other.",
};

export async function setBlocked(services: AppServices, viewer: Viewer, memberId: string, blocked: boolean, now = new Date()): Promise<Outcome<null>> {
  if (memberId === viewer.id) return fail(400, BLOCK_MESSAGES.self);
  const other = await services.db.selectFrom("member").select(["id", "role"]).where("id", "=", memberId).executeTakeFirst();
  if (!other) return fail(404, BLOCK_MESSAGES.missing);
  if (blocked && isModerator(other)) return fail(403, BLOCK_MESSAGES.moderator);
  wrote(tag.viewer(viewer.id), tag.viewer(memberId));
  await setBlock(services.db, viewer.id, memberId, blocked, now.toISOString());
  return { ok: true, value: null };
}

/** Whether the viewer blocked this member (the profile's button). */
export function viewerBlocks(db: Executor, viewer: Viewer | null, memberId: string) {
  return viewer ? isBlocking(db, viewer.id, memberId) : Promise.resolve(false);
}

/** Whether either of the two blocked the other. */
export async function blockedEitherWay(db: Executor, a: string, b: string) {
  return (await blocksAmong(db, a, [b])).size > 0;
}

/** For a page of posts: which of their authors the viewer blocked, or was blocked by. */
export function blocksFor(db: Executor, viewer: Viewer | null, authorIds: readonly string[]) {
  return viewer ? blocksAmong(db, viewer.id, authorIds) : Promise.resolve(new Map<string, MemberBlock>());
}

/**
 * A post's markup as the viewer sees it when one of them blocked the other: collapsed behind a line
 * that says why and opens it (a disclosure: no script). Static words around markup the server made.
 */
export function collapsedPostHtml(html: string, block: MemberBlock): string {
  return `<details class="blocked-post"><summary class="cursor-pointer text-sm text-muted">${BLOCKED_LINE[block]} <span class="underline">${SHOW_BLOCKED_POST}</span></summary>${html}</details>`;
}
