import type { AppServices, Viewer } from "../../context";
import { awardXp, revokeXp } from "../progression/progression-service";
import { lockReactions, reactionAllowed, reactionEarnsXp } from "../reactions/reaction-service";
import { BLOCK_MESSAGES, blockedEitherWay } from "../blocks/block-service";
import { createPost, deleteOwnPost, editOwnPost, setPostHidden } from "../posts/pipeline";
import { fail, type Outcome } from "../outcome";
import { tag, wrote } from "../../cache/page-tags";
import type { Executor } from "../../db/executor";
import { specOf } from "../posts/post-kinds";
import { notify, ringBells, withdrawFromGroup } from "../notifications/notification-service";
import { deleteLike, findOpenCreation, hasLiked, insertLike, latestLiker, likeCountOf, moveLikeCount } from "./forge-repository";

/**
 * What members do with a creation once it is shared (issue 10): like it, comment on it; its author
 * deletes it, a moderator hides or restores it. Comments, deleting and hiding go through the
 * posting pipeline (ADR 0017); likes are the Forge's own toggle (ADR 0021).
 */

export const OWN_LIKE_MESSAGE = "You cannot like your own creation.";
export const CREATION_MISSING = "Creation not found";

/**
 * One like per member and creation, from the first day, never on one's own; undoable. A like is one
 * of the member's reactions (issue 31): an initiate's likes count with their reactions in the daily
 * limit, and give the author no XP (a ring of new accounts must not farm rank). The like, the
 * stored count and the author's XP change in one transaction, and only when the like row itself
 * was inserted or removed: a second like (or 50 at once from one member) meets the primary key and
 * changes nothing, an unlike of what was never liked changes nothing. XP is keyed per like
 * (`<creation>:<member>`) and capped per day with the helpful votes (awardXp), so unliking takes
 * back exactly what the like gave, and deleting the creation takes back all of it (post-kinds.ts).
 */
export async function setLiked(
  services: AppServices,
  viewer: Viewer,
  creationId: number,
  liked: boolean,
  now = new Date(),
): Promise<Outcome<{ liked: boolean; likes: number }>> {
  const { db } = services;
  const creation = await findOpenCreation(db, creationId);
  if (!creation) return fail(404, CREATION_MISSING);
  if (creation.author_id === viewer.id) return fail(403, OWN_LIKE_MESSAGE);
  const subject = `${creationId}:${viewer.id}`;
  // The count shows on the creation's page and its card in the Forge (and on `/`).
  wrote(tag.creation(creationId), tag.forge);
  let told: string[] = [];
  const outcome = await db.transaction().execute(async (trx) => {
    // Read again inside the transaction: a creation hidden or deleted a moment ago takes no like.
    if (liked && !(await findOpenCreation(trx, creationId))) return fail(404, CREATION_MISSING);
    if (liked) {
      // A repeat (a double click, a reload) changes nothing and costs nothing of the limits.
      await lockReactions(trx, viewer);
      if (await hasLiked(trx, creationId, viewer.id)) return { ok: true as const, value: { liked, likes: await likeCountOf(trx, creationId) } };
      const allowed = await reactionAllowed(trx, viewer, now);
      if (!allowed.ok) return allowed;
      if (await insertLike(trx, creationId, viewer.id, now.toISOString())) {
        await moveLikeCount(trx, creationId, 1);
        if (await reactionEarnsXp(trx, viewer.id)) await awardXp(trx, creation.author_id, "creation.liked", subject, now);
        told = await noticeLike(trx, creationId, creation.author_id, viewer.id, now);
      }
    } else {
      const likedAt = await deleteLike(trx, creationId, viewer.id);
      if (likedAt !== null) {
        await moveLikeCount(trx, creationId, -1);
        await revokeXp(trx, creation.author_id, "creation.liked", subject);
        told = await withdrawFromGroup(trx, {
          memberId: creation.author_id,
          group: likeGroup(creationId),
          actorId: viewer.id,
          actedAt: likedAt,
          nextActor: (since) => latestLiker(trx, creationId, viewer.id, since),
        });
      }
    }
    return { ok: true as const, value: { liked, likes: await likeCountOf(trx, creationId) } };
  });
  await ringBells(services, told);
  return outcome;
}

/** The likes of one creation gather on one unread line of its author's ("Amara and 4 others liked …"). */
const likeGroup = (creationId: number) => `like:creation:${creationId}`;

/** The creation's author is told; likes gather on one unread line ("Amara and 4 others liked …"). */
async function noticeLike(trx: Executor, creationId: number, authorId: string, actorId: string, now: Date) {
  const place = await specOf("creation").notices(trx, { id: creationId, parentId: null });
  if (!place) return [];
  const { subject, parent, title, url } = place;
  return notify(trx, actorId, [{ memberId: authorId, kind: "like", subject, parent, title, url, group: likeGroup(creationId) }], now);
}

/** A comment (1 to 2,000 characters, checked by the shared schema) on a creation that shows. */
export async function commentOnCreation(
  services: AppServices,
  viewer: Viewer,
  creationId: number,
  input: { body: string; submissionKey: string },
  now = new Date(),
): Promise<Outcome<{ id: number; pending: boolean }>> {
  const creation = await findOpenCreation(services.db, creationId);
  if (!creation) return fail(404, CREATION_MISSING);
  if (await blockedEitherWay(services.db, viewer.id, creation.author_id)) return fail(403, BLOCK_MESSAGES.comment);
  const posted = await createPost(
    services,
    viewer,
    {
      kind: "comment",
      parentId: creationId,
      values: { body: input.body },
      submissionKey: input.submissionKey,
      recheck: async (trx) => ((await findOpenCreation(trx, creationId)) ? { ok: true, value: null } : fail(404, CREATION_MISSING)),
    },
    now,
  );
  return posted.ok ? { ok: true, value: { id: posted.value.id, pending: posted.value.pending } } : posted;
}

/** The author edits their comment; the answer names the creation it belongs to. */
export async function editComment(
  services: AppServices,
  viewer: Viewer,
  commentId: number,
  input: { body: string },
  now = new Date(),
): Promise<Outcome<{ creationId: number }>> {
  const edited = await editOwnPost(services, viewer, "comment", commentId, { values: () => ({ body: input.body }) }, now);
  return edited.ok ? { ok: true, value: { creationId: Number(edited.value.parent_id) } } : edited;
}

/** The author deletes their comment: it shows as [deleted] and leaves the creation's count. */
export async function deleteComment(services: AppServices, viewer: Viewer, commentId: number, now = new Date()): Promise<Outcome<{ creationId: number }>> {
  const deleted = await deleteOwnPost(services, viewer, "comment", commentId, now);
  return deleted.ok ? { ok: true, value: { creationId: Number(deleted.value.parent_id) } } : deleted;
}

/** The author deletes their creation; its 10 XP and the XP its likes gave go back (post-kinds.ts). */
export async function deleteCreation(services: AppServices, viewer: Viewer, creationId: number, now = new Date()): Promise<Outcome<{ id: number }>> {
  const deleted = await deleteOwnPost(services, viewer, "creation", creationId, now);
  return deleted.ok ? { ok: true, value: { id: creationId } } : deleted;
}

/** A moderator hides or restores a creation or a comment (logged, as the Forum and Council do). */
export async function moderateForge(
  services: AppServices,
  viewer: Viewer,
  kind: "creation" | "comment",
  id: number,
  hidden: boolean,
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  return setPostHidden(services, viewer, kind, id, hidden, now);
}
