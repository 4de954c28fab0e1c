import { tag, wrote, wroteNothingPublic } from "../../cache/page-tags";
import type { AppServices, Viewer } from "../../context";
import { lockKeys } from "../../db/lock-keys";
import type { Executor } from "../../db/executor";
import { isModerator } from "../accounts/roles";
import { liftSilenceForReview, SILENCE_DAYS_MAX, SILENCE_MESSAGES, silenceForReview, silenceMember, speakAllowed } from "../accounts/silence";
import { notify, ringBells, type Notice } from "../notifications/notification-service";
import { fail, writeAllowed, type Outcome } from "../outcome";
import { awardPostXp, deleteInTransaction, hideInTransaction, moderatorPolicy, noticeModeration, wrotePost } from "../posts/pipeline";
import { specOf } from "../posts/post-kinds";
import { postKey, postPlaces, type PostRef } from "../posts/post-places";
import { findPost, insertModerationAction, recentBodiesBy } from "../posts/post-repository";
import { progressOf } from "../progression/progression-service";
import { FLAG_NOTE_MAX, FLAG_THRESHOLD, flagWeight, REVIEW_WARNING_MAX, type FlagReason } from "~/lib/flags";
import { NEW_MEMBER_LIMITS_RANK } from "~/lib/privileges";
import { isRankAtLeast } from "~/lib/ranks";
import type { Db } from "../../db/connect";
import { FIRST_POSTS } from "./spam-signals";
import {
  decideReviewItem,
  findReviewItem,
  flagRecordOf,
  insertFlag,
  markHiddenByFlags,
  openReviewItem,
  pendingFlagsOn,
  pendingSpamWeight,
  settleFlags,
} from "./flag-repository";

/**
 * Flags and the review queue (issue 31). Every member may flag a post that shows, once, never their
 * own; a flag weighs by the flagger's rank and record (lib/flags.ts). The flag, the post's review
 * item and, when the pending flags' weight reaches the threshold, the hiding of the post are one
 * transaction under the post's review lock: fifty flags at once are fifty rows, and the post is
 * hidden exactly once. The author is told it is hidden while the community reviews it, without the
 * flaggers' names. Moderators decide on /review: agree (it stays hidden; the flaggers' record
 * rises), disagree (restored; their record falls) or ignore (restored if the flags hid it; no
 * record moves). Each decision is logged, and the author and the flaggers are told.
 */
export const FLAG_MESSAGES = {
  own: "You cannot flag your own post.",
  twice: "You have flagged this post already.",
  hidden: "This post is already hidden while it is reviewed.",
  note: "Say what is wrong in the note",
  noteLong: `Keep the note under ${FLAG_NOTE_MAX} characters`,
  nothingToReview: "This post is not waiting for review.",
  warningLong: `Keep the warning under ${REVIEW_WARNING_MAX} characters`,
};

/** The reason an author silenced from /review reads. */
export const REVIEW_SILENCE_REASON = "A post of yours was hidden after review";

const reviewKey = (post: PostRef) => `review:${post.kind}:${post.id}`;

/** What the member's flag would weigh now: a moderator's hides at once. */
export async function flagWeightOf(db: Executor, viewer: Viewer): Promise<number> {
  if (isModerator(viewer)) return FLAG_THRESHOLD;
  const [progress, record] = await Promise.all([progressOf(db, viewer.id), flagRecordOf(db, viewer.id)]);
  return flagWeight(progress.rank.id, record);
}

export async function flagPost(
  services: AppServices,
  viewer: Viewer,
  post: PostRef,
  input: { reason: FlagReason; note: string },
  now = new Date(),
): Promise<Outcome<{ hidden: boolean }>> {
  const note = input.note.trim();
  if (input.reason === "other" && note === "") return fail(400, FLAG_MESSAGES.note, "note");
  if (note.length > FLAG_NOTE_MAX) return fail(400, FLAG_MESSAGES.noteLong, "note");
  const { db } = services;
  const place = (await postPlaces(db, [post])).get(postKey(post));
  if (!place || place.deleted) return fail(404, specOf(post.kind).missing);
  if (place.hidden) return fail(409, FLAG_MESSAGES.hidden);
  const row = await findPost(db, post.kind, post.id);
  if (!row) return fail(404, specOf(post.kind).missing);
  if (row.author_id === viewer.id) return fail(403, FLAG_MESSAGES.own);
  const speaking = await speakAllowed(db, viewer, now);
  if (!speaking.ok) return speaking;
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  const weight = await flagWeightOf(db, viewer);
  const at = now.toISOString();
  let told: string[] = [];
  let hiddenNow = false;
  let swept: Array<PostRef & { parentId: string | number | null }> = [];
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome<{ hidden: boolean }>> => {
    await lockKeys(trx, [reviewKey(post)]);
    const flagId = await insertFlag(trx, { post, flaggerId: viewer.id, reason: input.reason, note, weight, at });
    if (flagId === null) return fail(409, FLAG_MESSAGES.twice);
    const totals = await pendingFlagsOn(trx, post);
    await openReviewItem(trx, post, row.author_id, totals, at);
    if (totals.weight < FLAG_THRESHOLD) return { ok: true, value: { hidden: false } };
    // Enough weight: hidden until a moderator decides (once; a post hidden already stays as it is).
    const hid = await hideInTransaction(trx, post.kind, post.id, true, { actor: viewer.id, action: "auto-hide", byFlags: true }, now);
    if (!hid.changed) return { ok: true, value: { hidden: hid.post?.hidden_at != null } };
    await markHiddenByFlags(trx, post, at);
    told = hid.told;
    hiddenNow = true;
    // Spam on a new member's first posts: their other posts of the last day are hidden for review
    // too, and they are silenced until a moderator decides (issue 31).
    if ((await pendingSpamWeight(trx, post)) * 2 >= totals.weight && (await isNewMember(trx, row.author_id))) {
      swept = await sweepNewMember(trx, post, row.author_id, viewer.id, now);
      await silenceForReview(trx, row.author_id, now);
    }
    return { ok: true, value: { hidden: true } };
  });
  // The pages it showed on name their tags after the commit; a flag that hid nothing changed no page.
  if (hiddenNow) {
    await wrotePost(db, post.kind, { id: post.id, parentId: row.parent_id, authorId: row.author_id });
    for (const other of swept) await wrotePost(db, other.kind, { id: other.id, parentId: other.parentId, authorId: row.author_id });
  } else wroteNothingPublic();
  await ringBells(services, told);
  return outcome;
}

/** A new member, as the spam sweep counts one: an initiate among their first posts. */
async function isNewMember(trx: Executor, memberId: string) {
  if (isRankAtLeast((await progressOf(trx, memberId)).rank.id, NEW_MEMBER_LIMITS_RANK)) return false;
  return (await recentBodiesBy(trx, memberId, FIRST_POSTS + 1)).length <= FIRST_POSTS;
}

/** Hides the member's other posts of the last day, each waiting on /review as hidden by the flags. */
async function sweepNewMember(trx: Db, flagged: PostRef, authorId: string, flaggerId: string, now: Date) {
  const at = now.toISOString();
  const since = now.getTime() - 24 * 60 * 60 * 1000;
  const swept: Array<PostRef & { parentId: string | number | null }> = [];
  for (const p of await recentBodiesBy(trx, authorId, FIRST_POSTS + 1)) {
    if ((p.kind === flagged.kind && p.id === flagged.id) || new Date(p.createdAt).getTime() < since) continue;
    const ref = { kind: p.kind, id: p.id };
    const hid = await hideInTransaction(trx, p.kind, p.id, true, { actor: flaggerId, action: "auto-hide", byFlags: true }, now);
    if (!hid.changed || !hid.post || hid.post.deleted_at !== null) continue;
    await openReviewItem(trx, ref, authorId, { flags: 0, weight: 0 }, at);
    await markHiddenByFlags(trx, ref, at);
    swept.push({ ...ref, parentId: hid.post.parent_id });
  }
  return swept;
}

export type ReviewDecision = "agree" | "disagree" | "ignore";

/** What agreeing may also do: delete the post, warn its author (their words to them), silence them for some days. */
export interface ReviewOptions {
  silenceDays?: number;
  warning?: string;
  remove?: boolean;
}

/**
 * A moderator's decision on a flagged post. Agree: it stays hidden (or is hidden, if it showed);
 * disagree: it shows again; ignore: it shows again if the flags hid it, and the flaggers' record
 * does not move. A first post waiting for approval is approved by "disagree" (it shows, and earns
 * its XP) and rejected by "agree". A second decision on the same item finds nothing pending (409).
 */
export async function decideReview(
  services: AppServices,
  viewer: Viewer,
  post: PostRef,
  decision: ReviewDecision,
  options: ReviewOptions = {},
  now = new Date(),
): Promise<Outcome<{ hidden: boolean; deleted: boolean }>> {
  const allowed = moderatorPolicy(viewer);
  if (!allowed.ok) return allowed;
  // Agreeing may also delete the post, warn its author or silence them for a while; the other
  // decisions take none of it. Checked before anything is decided.
  const agree = decision === "agree";
  const silenceDays = agree ? (options.silenceDays ?? 0) : 0;
  if (silenceDays !== 0 && (!Number.isInteger(silenceDays) || silenceDays < 1 || silenceDays > SILENCE_DAYS_MAX))
    return fail(400, SILENCE_MESSAGES.days, "days");
  const warning = agree ? (options.warning ?? "").trim() : "";
  if (warning.length > REVIEW_WARNING_MAX) return fail(400, FLAG_MESSAGES.warningLong, "warning");
  const remove = agree && options.remove === true;
  const { db } = services;
  const at = now.toISOString();
  const told: string[] = [];
  let changed = false;
  let deleted = false;
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome<{ hidden: boolean; parentId: string | number | null; authorId: string }>> => {
    await lockKeys(trx, [reviewKey(post)]);
    const item = await findReviewItem(trx, post);
    if (!item || item.status !== "pending") return fail(409, FLAG_MESSAGES.nothingToReview);
    const current = await findPost(trx, post.kind, post.id);
    if (!current) return fail(404, specOf(post.kind).missing);
    const hide = decision === "agree" ? true : decision === "disagree" ? false : item.hidden_by_flags_at === null ? null : false;
    if (hide !== null) {
      const moved = await hideInTransaction(trx, post.kind, post.id, hide, { actor: viewer.id, action: hide ? "hide" : "restore" }, now);
      changed = moved.changed;
      told.push(...moved.told);
      // Hidden by the flags already, the author still hears that a moderator agreed.
      if (!moved.changed && hide) told.push(...(await noticeModeration(trx, post.kind, current, true, viewer.id, now)));
    }
    // An approved first post earns what a post earns, now that it shows (issue 31).
    if (item.reason === "approval" && decision === "disagree" && changed) await awardPostXp(trx, post.kind, current.author_id, post.id, now);
    await insertModerationAction(trx, { actor_id: viewer.id, action: decision, subject_type: post.kind, subject_id: post.id, created_at: at });
    if (remove) {
      const gone = await deleteInTransaction(services, trx, post.kind, post.id, now);
      if (gone) {
        deleted = true;
        told.push(...gone.told);
        await insertModerationAction(trx, { actor_id: viewer.id, action: "delete", subject_type: post.kind, subject_id: post.id, created_at: at });
      }
    }
    if (warning !== "") {
      told.push(...(await warnAuthor(trx, post, current, warning, now)));
      await insertModerationAction(trx, { actor_id: viewer.id, action: "warn", subject_type: post.kind, subject_id: post.id, created_at: at });
    }
    await decideReviewItem(trx, post, decision, viewer.id, at);
    // Cleared, the post takes away a silence its spam flags set on a new member.
    if (decision !== "agree") await liftSilenceForReview(trx, current.author_id);
    const flaggers = await settleFlags(trx, post, decision === "agree" ? "agreed" : decision === "disagree" ? "disagreed" : "ignored", at);
    if (decision !== "ignore") told.push(...(await noticeFlaggers(trx, post, current.parent_id, flaggers, decision, viewer.id, now)));
    const hidden = hide ?? current.hidden_at !== null;
    return { ok: true, value: { hidden, parentId: current.parent_id, authorId: current.author_id } };
  });
  if (!outcome.ok) return outcome;
  // Every decision changes the post's pages: it shows again, or it is no longer "under review"
  // there but hidden (issue 31).
  await wrotePost(db, post.kind, { id: post.id, parentId: outcome.value.parentId, authorId: outcome.value.authorId });
  // A silence the spam flags set may have been lifted: the author's profile shows it to moderators.
  if (decision !== "agree") wrote(tag.profile(outcome.value.authorId));
  await ringBells(services, [...new Set(told)]);
  if (silenceDays > 0) {
    const silenced = await silenceMember(services, viewer, outcome.value.authorId, { days: silenceDays, reason: REVIEW_SILENCE_REASON }, now);
    // A moderator's post was flagged: it is hidden all the same, and a moderator is never silenced.
    if (!silenced.ok && silenced.status !== 403) return silenced;
  }
  return { ok: true, value: { hidden: outcome.value.hidden, deleted } };
}

/**
 * The author reads the moderator's words with a link to where the post was. From no one by name (so
 * a member who blocked the moderator still hears it), under the author's setting for moderation.
 */
async function warnAuthor(trx: Executor, post: PostRef, row: { author_id: string; parent_id: string | number | null }, warning: string, now: Date) {
  const place = await specOf(post.kind).notices(trx, { id: post.id, parentId: row.parent_id });
  if (!place) return [];
  const notice: Notice = {
    memberId: row.author_id,
    kind: "moderation.warned",
    subject: `warning:${place.subject}`,
    parent: null,
    title: warning,
    url: place.url,
  };
  return notify(trx, null, [notice], now);
}

/** The flaggers hear what a moderator decided about their flag. */
async function noticeFlaggers(
  trx: Executor,
  post: PostRef,
  parentId: string | number | null,
  flaggers: readonly string[],
  decision: "agree" | "disagree",
  moderatorId: string,
  now: Date,
) {
  const place = await specOf(post.kind).notices(trx, { id: post.id, parentId });
  if (!place || flaggers.length === 0) return [];
  const notices: Notice[] = flaggers.map((memberId) => ({
    memberId,
    kind: decision === "agree" ? "flag.agreed" : "flag.disagreed",
    subject: `flag:${post.kind}:${post.id}`,
    parent: null,
    title: place.title,
    url: decision === "agree" ? "/notifications" : place.url,
  }));
  return notify(trx, moderatorId, notices, now);
}
