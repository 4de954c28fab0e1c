import { tag, wrote } from "../../cache/page-tags";
import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { Executor } from "../../db/executor";
import { lockKeys } from "../../db/lock-keys";
import { speakAllowed } from "../accounts/silence";
import { hit, tryAgainMessage, wouldRefuse } from "../../rate-limit";
import { notify, ringBells, withdrawFromGroup } from "../notifications/notification-service";
import { fail, type Outcome } from "../outcome";
import { specOf } from "../posts/post-kinds";
import { postKey, postPlaces, type PostRef } from "../posts/post-places";
import { findPost } from "../posts/post-repository";
import { progressOf } from "../progression/progression-service";
import { REACTION_LIMIT } from "~/lib/limits";
import { INITIATE_DAILY_REACTIONS, INITIATE_DAILY_REACTIONS_MESSAGE, UNLIMITED_REACTIONS_RANK } from "~/lib/privileges";
import { isRankAtLeast } from "~/lib/ranks";
import { noReactions, type Reaction, type ReactionCounts } from "~/lib/reactions";
import { deleteReaction, hasReacted, insertReaction, latestReactor, moveReactionCount, reactionCounts, reactionsOfMemberOn } from "./reaction-repository";

/**
 * Reactions (issue 31): any member, from their first day, gives any post that shows one or more of
 * the four reactions, never to their own. The reaction row, the kept count and the author's notice
 * move in one transaction, and only when the row itself was inserted or removed: a second "add"
 * (or 50 at once) meets the primary key and changes nothing, a "remove" of what was never given
 * changes nothing. The form says which way (`add`/`remove`), never "toggle", so a repeated post
 * asks for the state it already has (as likes do, ADR 0021).
 *
 * Limits, checked and recorded in the same transaction as the reaction (ADR 0013): every member's
 * burst limit (REACTION_LIMIT, against scripts), and an initiate's 20 in 24 hours, counted over
 * reactions and Forge likes together under the member's reaction lock, so parallel reactions cannot
 * all read "one left". Reactions give no XP: the XP table has none for them (a creation's like keeps its 1).
 */
const DAY_MS = 24 * 60 * 60 * 1000;

export const OWN_REACTION_MESSAGE = "You cannot react to your own post.";

/** The lock and burst key of one member's reactions and likes. */
export const reactionKey = (memberId: string) => `react:member:${memberId}`;

/** The tag of the page that shows a post's counts: its discussion's, question's or creation's. */
export function reactionPageTag(kind: PostRef["kind"], id: number, parentId: string | number | null): string {
  switch (kind) {
    case "discussion":
      return tag.discussion(id);
    case "reply":
      return tag.discussion(Number(parentId));
    case "question":
      return tag.question(id);
    case "answer":
      return tag.question(Number(parentId));
    case "creation":
      return tag.creation(id);
    case "comment":
      return tag.creation(Number(parentId));
  }
}

/**
 * Queues one member's reactions and likes behind each other until the transaction ends, so what it
 * reads of their own (given already? how many today?) stays true while it writes.
 */
export function lockReactions(trx: Db, viewer: Viewer) {
  return lockKeys(trx, [reactionKey(viewer.id)]);
}

/**
 * An initiate's day of reactions and likes (any 24 hours: each one given counts, taken back or not,
 * so giving and taking back cannot go round the limit), checked and recorded inside the caller's
 * transaction with the member's reaction lock held, along with the burst limit every member has. Asked only for a
 * reaction not given yet: a repeat (a double click, a reload) changes nothing and costs nothing.
 * Shared with the Forge's like (forge-engagement.ts), which counts with reactions.
 */
export async function reactionAllowed(trx: Db, viewer: Viewer, now: Date): Promise<Outcome<null>> {
  await lockReactions(trx, viewer);
  const speaking = await speakAllowed(trx, viewer, now);
  if (!speaking.ok) return speaking;
  const burst = { key: reactionKey(viewer.id), ...REACTION_LIMIT };
  // The burst first, read only: a refusal for it must not spend one of the day's.
  const bursting = await wouldRefuse(trx, [burst], now);
  if (!bursting.ok) return fail(429, tryAgainMessage(bursting.retryMinutes));
  const initiate = !isRankAtLeast((await progressOf(trx, viewer.id)).rank.id, UNLIMITED_REACTIONS_RANK);
  const day = { key: `react-day:member:${viewer.id}`, max: INITIATE_DAILY_REACTIONS, windowMs: DAY_MS };
  const limited = await hit(trx, initiate ? [burst, day] : [burst], now);
  // With the lock held the burst still has room: a refusal here is the day's.
  return limited.ok ? { ok: true, value: null } : fail(429, INITIATE_DAILY_REACTIONS_MESSAGE);
}

/** Whether the member's reactions earn XP where a like does: not an initiate's (a ring of new accounts must not farm rank). */
export async function reactionEarnsXp(db: Executor, memberId: string) {
  return isRankAtLeast((await progressOf(db, memberId)).rank.id, UNLIMITED_REACTIONS_RANK);
}

export async function setReaction(
  services: AppServices,
  viewer: Viewer,
  post: PostRef,
  reaction: Reaction,
  given: boolean,
  now = new Date(),
): Promise<Outcome<{ counts: ReactionCounts }>> {
  const { db } = services;
  const missing = fail(404, specOf(post.kind).missing);
  // Only what shows to everyone: not deleted, not hidden, not under a hidden post.
  const place = (await postPlaces(db, [post])).get(postKey(post));
  if (!place || place.deleted || place.hidden) return missing;
  const row = await findPost(db, post.kind, post.id);
  if (!row) return missing;
  if (row.author_id === viewer.id) return fail(403, OWN_REACTION_MESSAGE);
  wrote(reactionPageTag(post.kind, post.id, row.parent_id));
  let told: string[] = [];
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome<{ counts: ReactionCounts }>> => {
    if (given) {
      // Read again inside the transaction: a post hidden or deleted a moment ago takes no reaction.
      const shows = (await postPlaces(trx, [post])).get(postKey(post));
      if (!shows || shows.deleted || shows.hidden) return missing;
      await lockReactions(trx, viewer);
      if (await hasReacted(trx, post, viewer.id, reaction)) return { ok: true, value: { counts: await countsOf(trx, post) } };
      const allowed = await reactionAllowed(trx, viewer, now);
      if (!allowed.ok) return allowed;
      if (await insertReaction(trx, post, viewer.id, reaction, now.toISOString())) {
        await moveReactionCount(trx, post, reaction, 1);
        // The author hears of a member once per post, however many of the four they give.
        if ((await reactionsOfMemberOn(trx, post, viewer.id)) === 1) told = await noticeReaction(trx, post, row.parent_id, row.author_id, viewer.id, now);
      }
    } else {
      const givenAt = await deleteReaction(trx, post, viewer.id, reaction);
      if (givenAt !== null) {
        await moveReactionCount(trx, post, reaction, -1);
        // Only the member's last reaction to the post taken back takes them off the author's line.
        if ((await reactionsOfMemberOn(trx, post, viewer.id)) === 0)
          told = await withdrawFromGroup(trx, {
            memberId: row.author_id,
            group: reactionGroup(post),
            actorId: viewer.id,
            actedAt: givenAt,
            nextActor: (since) => latestReactor(trx, post, viewer.id, since),
          });
      }
    }
    return { ok: true, value: { counts: await countsOf(trx, post) } };
  });
  await ringBells(services, told);
  return outcome;
}

const countsOf = async (db: Executor, post: PostRef) => (await reactionCounts(db, [post])).get(postKey(post)) ?? noReactions();

/** The reactions to one post gather on one unread line of its author's ("Amara and 4 others reacted …"). */
const reactionGroup = (post: PostRef) => `reaction:${post.kind}:${post.id}`;

async function noticeReaction(trx: Executor, post: PostRef, parentId: string | number | null, authorId: string, actorId: string, now: Date) {
  const place = await specOf(post.kind).notices(trx, { id: post.id, parentId });
  if (!place) return [];
  const { subject, parent, title, url } = place;
  return notify(trx, actorId, [{ memberId: authorId, kind: "reaction", subject, parent, title, url, group: reactionGroup(post) }], now);
}
