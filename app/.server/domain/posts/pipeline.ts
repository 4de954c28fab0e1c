import { linksAndImages, mentionCandidates, renderMarkdown } from "../../markdown";
import { currentPageTags, tag, wrote } from "../../cache/page-tags";
import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { ModerationLogAction } from "../../db/schema";
import { isModerator } from "../accounts/roles";
import { speakAllowed } from "../accounts/silence";
import { excerptOf } from "~/lib/text";
import { toIso } from "~/lib/dates";
import { EDIT_GRACE_MS } from "~/lib/history";
import { insertRevision } from "./revision-repository";
import { deleteDraft } from "../writing/draft-repository";
import { draftPlace } from "~/lib/drafts";
import { POST_IMAGES_MAX, POST_IMAGES_MAX_MESSAGE } from "~/lib/post-images";
import { takePostImages } from "../writing/post-image-service";
import { wordDiffHtml } from "./word-diff";
import { awardXp, progressOf, takeBackVoteXp, takeBackXpOf } from "../progression/progression-service";
import { NEW_MEMBER_IMAGES, NEW_MEMBER_LIMITS_RANK, NEW_MEMBER_LINKS, NEW_MEMBER_LINKS_MESSAGE } from "~/lib/privileges";
import { isRankAtLeast } from "~/lib/ranks";
import { openApprovalItem } from "../flags/flag-repository";
import { authorMayChangeHidden } from "../flags/under-review";
import { FIRST_POSTS, spamSignal } from "../flags/spam-signals";
import { fail, writeAllowed, type Outcome } from "../outcome";
import { boundKey } from "../submission-key";
import { membersByHandle, watchUnlessChosen } from "../notifications/notification-repository";
import { forgetNotificationsAbout, notify, ringBells, type Notice } from "../notifications/notification-service";
import { MENTIONS_NOTIFIED } from "~/lib/notifications";
import { indexSearch } from "../../db/search/search-documents";
import { specOf, type CountedPost, type PostKind, type PostKindSpec } from "./post-kinds";
import { postLimitsAhead, postWithinLimits, writeLimitAhead } from "./post-limits";
import {
  currentVersion,
  findPost,
  findPostBody,
  insertModerationAction,
  insertSubmitted,
  markDeleted,
  moveCounts,
  recentBodiesBy,
  setHiddenAt,
  unlinkMedia,
  updateEdited,
  type PostRow,
} from "./post-repository";

/**
 * "A member posts something", once for every kind of post (ADR 0017):
 *
 *   policy → validate → load → transaction { limits; insert; counts; XP; log }
 *
 * The services (Forum, Council, later the Forge) do what is theirs before and around it: the route
 * has validated the input with the zod schema its form shares; the service loads the parent and
 * applies its own rules (a locked discussion, a hidden question); then the steps below run. Each
 * step is one function; the orchestrators at the end of this file put them in order.
 */

const visible = (post: { deleted_at: unknown; hidden_at: unknown }) => post.deleted_at === null && post.hidden_at === null;

// ---------------------------------------------------------------- steps

/** policy: moderators and admins may hide and restore. */
export function moderatorPolicy(viewer: Viewer): Outcome<null> {
  return isModerator(viewer) ? { ok: true, value: null } : fail(403, "Only moderators can do that.");
}

/**
 * load (own post): the author's post, present and not deleted; a hidden post for a moderator (who
 * may be the author), or for its author while it waits on /review (the flags hid it, or it waits
 * for approval: issue 31), so nobody else learns that a post a moderator hid exists.
 */
export async function loadOwnPost(db: Db, viewer: Viewer, kind: PostKind, id: number): Promise<Outcome<PostRow>> {
  const post = await findPost(db, kind, id);
  if (!post || post.deleted_at !== null) return fail(404, specOf(kind).missing);
  if (post.hidden_at !== null && !isModerator(viewer) && !(post.author_id === viewer.id && (await authorMayChangeHidden(db, kind, id))))
    return fail(404, specOf(kind).missing);
  if (post.author_id !== viewer.id) return fail(403, "You can only change your own posts.");
  return { ok: true, value: post };
}

/**
 * counts: a post that appears or disappears moves its parents' stored counts (the kind's
 * `countedIn`) and the counts its kind keeps elsewhere (`alsoCounts`: a reply's hour, a creation's
 * category).
 */
export async function countPost(trx: Db, kind: PostKind, post: CountedPost, delta: number, activityAt?: string) {
  if (delta === 0) return;
  await moveCounts(trx, kind, post.parentId, delta, activityAt);
  await specOf(kind).alsoCounts?.(trx, post, delta);
}

/** XP: the author's award for a new post (once per post: the ledger's unique key). */
export async function awardPostXp(trx: Db, kind: PostKind, authorId: string, id: number, now: Date) {
  const { xp } = specOf(kind);
  if (xp) await awardXp(trx, authorId, xp, id, now);
}

/** XP: a deleted post's award goes back, with what others gave it (an acceptance, helpful votes). */
export async function takeBackPostXp(trx: Db, kind: PostKind, authorId: string, id: number) {
  const { xp, earned } = specOf(kind);
  await takeBackXpOf(trx, authorId, [...(xp ? [xp] : []), ...earned.byId], id);
  await takeBackVoteXp(trx, authorId, earned.byVote, id);
}

/**
 * media: a deleted post's stored files go with it, in the same transaction (ADR 0020). The row
 * stays (as "[deleted]"), the member's image or recording does not. Hiding keeps them, since a
 * moderator may restore the post.
 */
export async function deletePostMedia(services: AppServices, trx: Db, kind: PostKind, id: number) {
  const { media } = specOf(kind);
  if (media.length === 0) return;
  await services.media.delete(trx, await unlinkMedia(trx, kind, id, media));
}

/**
 * The author of a post a moderator hid or restored is told, with a link to where it was; a post the
 * flags hid says so, from nobody in particular (a flagger stays unknown to the author).
 */
export async function noticeModeration(trx: Db, kind: PostKind, post: PostRow, hidden: boolean, actorId: string | null, now: Date, byFlags = false) {
  const place = await specOf(kind).notices(trx, { id: post.id, parentId: post.parent_id });
  if (!place || post.deleted_at !== null) return [];
  // Its own subject, so that hiding the post does not take this notice with the others.
  const notice: Notice = {
    memberId: post.author_id,
    kind: byFlags ? "moderation.flagged" : hidden ? "moderation.hidden" : "moderation.restored",
    subject: `moderation:${place.subject}`,
    parent: null,
    title: place.title,
    url: place.url,
  };
  return notify(trx, actorId, [notice], now);
}

/** log: every moderation action on every kind of post is recorded. */
export async function logModeration(trx: Db, viewer: Viewer, action: ModerationLogAction, kind: PostKind, id: number, at: string) {
  await insertModerationAction(trx, { actor_id: viewer.id, action, subject_type: kind, subject_id: id, created_at: at });
}

/**
 * tags: the pages a post of this kind shows on, for the anonymous page cache (issue 13), as its
 * kind describes them (`pageTags`). Only inside a request: a script has no page cache to tell.
 */
export async function postPageTags(db: Db, kind: PostKind, id: number, parentId: string | number | null): Promise<string[]> {
  if (!currentPageTags()) return [];
  return specOf(kind).pageTags(db, { id, parentId });
}

/**
 * A post written, edited, deleted, hidden or restored changes the pages it shows on and its
 * author's profile (the lists of their posts and their counts).
 */
export async function wrotePost(db: Db, kind: PostKind, post: { id: number; parentId: string | number | null; authorId: string }) {
  wrote(...(await postPageTags(db, kind, post.id, post.parentId)), tag.profile(post.authorId));
}

/**
 * Every post's body is rendered to HTML once, when it is written (ADR 0012), so no page view runs
 * the Markdown parser on it; a kind that keeps an excerpt gets it from the same body. `@handle`s of
 * living members render as links to their profiles (issue 28), and the first of them are told.
 */
async function withRenderedBody(
  db: Db,
  spec: PostKindSpec,
  values: Record<string, unknown>,
): Promise<{ values: Record<string, unknown>; mentioned: Mentioned }> {
  if (typeof values.body !== "string") return { values, mentioned: [] };
  const mentioned = await mentionedIn(db, values.body);
  const html = renderMarkdown(values.body, { mentions: new Set(mentioned.map((m) => m.handle)) });
  return { values: { ...values, body_html: html, ...(spec.excerpt ? { excerpt: excerptOf(values.body) } : {}) }, mentioned };
}

type Mentioned = Array<{ id: string; handle: string }>;

/**
 * safeguards (issue 31, as Discourse's trust level 0): an initiate's post holds at most
 * NEW_MEMBER_LINKS links and NEW_MEMBER_IMAGES images, counted in the rendered body (a mention is
 * the site's own link and does not count). The rank is read only for a body past the limits. No
 * post, whatever its author's rank, shows more than POST_IMAGES_MAX images (issue 32).
 */
async function newMemberSafeguards(db: Db, viewer: Viewer, values: Record<string, unknown>): Promise<Outcome<null>> {
  const html = values.body_html;
  if (typeof html !== "string") return { ok: true, value: null };
  const { links, images } = linksAndImages(html);
  if (images > POST_IMAGES_MAX) return fail(400, POST_IMAGES_MAX_MESSAGE, "body");
  if (links <= NEW_MEMBER_LINKS && images <= NEW_MEMBER_IMAGES) return { ok: true, value: null };
  if (isRankAtLeast((await progressOf(db, viewer.id)).rank.id, NEW_MEMBER_LIMITS_RANK)) return { ok: true, value: null };
  return fail(400, NEW_MEMBER_LINKS_MESSAGE, "body");
}

/** How many mentions of one body are looked up (and linked); the first MENTIONS_NOTIFIED of them are told. */
const MENTIONS_LINKED = 500;

/** The living members a body mentions, in the order it first names them. */
async function mentionedIn(db: Db, body: string): Promise<Mentioned> {
  const handles = mentionCandidates(body).slice(0, MENTIONS_LINKED);
  const found = new Map((await membersByHandle(db, handles)).map((m) => [m.handle, m.id]));
  return handles.flatMap((handle) => (found.has(handle) ? [{ id: found.get(handle)!, handle }] : []));
}

/**
 * notices (issue 28): inside the post's transaction, its author watches what they wrote in, and the
 * first members it mentions and those watching its parent are told (a mention before a plain
 * reply). `mentioned` is who is newly named (all of them for a new post, the new ones for an edit).
 */
async function noticePost(
  trx: Db,
  kind: PostKind,
  post: { id: number; parentId: string | number | null },
  authorId: string,
  mentioned: Mentioned,
  now: Date,
  withTold = true,
) {
  const place = await specOf(kind).notices(trx, post);
  if (!place) return [];
  if (withTold && place.authorWatches) await watchUnlessChosen(trx, authorId, place.authorWatches, now.toISOString());
  const about = { subject: place.subject, parent: place.parent, title: place.title, url: place.url, quietIf: place.quietIf };
  const notices: Notice[] = [
    ...mentioned.slice(0, MENTIONS_NOTIFIED).map((m) => ({ ...about, memberId: m.id, kind: "mention" as const })),
    ...(withTold ? place.told.map((t) => ({ ...about, memberId: t.memberId, kind: t.kind })) : []),
  ];
  return notify(trx, authorId, notices, now);
}

/** After the commit: bells ring for those told, and open pages of the parent hear of the new post. */
function announcePost(services: AppServices, kind: PostKind, post: { id: number; parentId: string | number | null }, told: readonly string[]) {
  const live = specOf(kind).live?.(post);
  if (live) services.live.publish(live.channel, live.event);
  return ringBells(services, told);
}

// ---------------------------------------------------------------- orchestrators

export interface NewPost {
  kind: PostKind;
  /** The parent row the service loaded (topic, discussion, question, creation), if the kind has one. */
  parentId: string | number | null;
  /** The kind's own columns (title, body, excerpt…); author, time and parent come from here. */
  values: Record<string, unknown>;
  /** The form's key (ADR 0009, 0052), bound here to the typed columns and `alsoSubmitted`. */
  submissionKey: string;
  /** What else the form sent that is no typed column (a question's virtues, a creation's type and file). */
  alsoSubmitted?: readonly unknown[];
  /** The kind's rules read again inside the transaction (a discussion locked a moment ago). */
  recheck?: (trx: Db) => Promise<Outcome<null>>;
  /** Rows that belong to the post (a question's virtues), written with it. */
  alsoWrite?: (trx: Db, id: number) => Promise<void>;
}

/**
 * What makes two submits one post: the form's key *and* what was written (ADR 0009, 0040). The
 * same form sent twice (a double click, a retry after a lost answer) is one post; two different
 * texts sent with one key are two posts. A member's page kept in memory (ADR 0040) gives two tabs
 * the same key, and the second reply must not be taken for the first and lost.
 */
function submittedKey(post: Pick<NewPost, "submissionKey" | "values" | "alsoSubmitted">) {
  // Only what the member typed: other values (an activity time) differ between two sends of one form.
  const typed = TYPED_FIELDS.map((field) => post.values[field] ?? null);
  return boundKey(post.submissionKey, [...typed, ...(post.alsoSubmitted ?? [])]);
}
const TYPED_FIELDS = ["title", "description", "body", "link_url"] as const;

/**
 * A new post: limits, insert, counts and XP in one transaction. A double submit returns the first
 * post with `created: false` and changes nothing.
 */
export async function createPost(
  services: AppServices,
  viewer: Viewer,
  post: NewPost,
  now = new Date(),
): Promise<Outcome<{ id: number; created: boolean; pending: boolean }>> {
  const spec = specOf(post.kind);
  const at = now.toISOString();
  // Rendered before the transaction: a long body must not hold the write lock while it renders.
  const { values, mentioned } = await withRenderedBody(services.db, spec, post.values);
  const safeguarded = await newMemberSafeguards(services.db, viewer, values);
  if (!safeguarded.ok) return safeguarded;
  const submissionKey = submittedKey(post);
  let told: string[] = [];
  const posted = await postWithinLimits(services, viewer, { kind: post.kind, submissionKey }, now, async (trx) => {
    if (post.recheck) {
      const still = await post.recheck(trx);
      if (!still.ok) return still;
    }
    const inserted = await insertSubmitted(trx, post.kind, {
      ...values,
      ...(spec.parent ? { [spec.parent]: post.parentId } : {}),
      author_id: viewer.id,
      created_at: at,
      submission_key: submissionKey,
    });
    // The same form, submitted twice at the same moment: the first one won.
    if (!inserted.created) return { ok: true as const, value: { ...inserted, pending: false } };
    // Posted: the member's draft for this place has done its work (issue 32).
    await deleteDraft(trx, viewer.id, draftPlace(post.kind, post.parentId));
    // Its pictures are the post's from now on: the sweep of untaken uploads leaves them (ADR 0071).
    await takePostImages(trx, values.body_html, at);
    await post.alsoWrite?.(trx, inserted.id);
    // A new member's first post caught by spam signals waits, hidden, for a moderator (issue 31):
    // not counted, no XP and nobody told until it is approved; its author hears that it waits.
    if (await waitsForApproval(trx, viewer, values)) {
      await setHiddenAt(trx, post.kind, inserted.id, at);
      await openApprovalItem(trx, { kind: post.kind, id: inserted.id }, viewer.id, at);
      await indexSearch(trx, [{ kind: post.kind, id: inserted.id }]);
      told = await noticePending(trx, post.kind, { id: inserted.id, parentId: post.parentId }, viewer.id, now);
      return { ok: true as const, value: { ...inserted, pending: true } };
    }
    // Found by its words from the commit on (issue 30).
    await indexSearch(trx, [{ kind: post.kind, id: inserted.id }]);
    await countPost(trx, post.kind, { id: inserted.id, parentId: post.parentId, createdAt: at }, 1, at);
    await awardPostXp(trx, post.kind, viewer.id, inserted.id, now);
    told = await noticePost(trx, post.kind, { id: inserted.id, parentId: post.parentId }, viewer.id, mentioned, now);
    return { ok: true as const, value: { ...inserted, pending: false } };
  });
  if (posted.ok) await wrotePost(services.db, post.kind, { id: posted.value.id, parentId: post.parentId, authorId: viewer.id });
  if (posted.ok && posted.value.created && !posted.value.pending)
    await announcePost(services, post.kind, { id: posted.value.id, parentId: post.parentId }, told);
  else if (posted.ok) await ringBells(services, told);
  return posted;
}

/** Whether an initiate's post shows a spam signal among their first posts (issue 31). */
async function waitsForApproval(trx: Db, viewer: Viewer, values: Record<string, unknown>) {
  if (typeof values.body !== "string" || typeof values.body_html !== "string") return false;
  if (isRankAtLeast((await progressOf(trx, viewer.id)).rank.id, NEW_MEMBER_LIMITS_RANK)) return false;
  // The post itself is among them already: the earlier ones are the rest.
  const earlier = (await recentBodiesBy(trx, viewer.id, FIRST_POSTS + 1)).slice(1);
  return spamSignal({ body: values.body, html: values.body_html }, earlier) !== null;
}

/** The author of a post that waits for approval is told so, from nobody in particular. */
async function noticePending(trx: Db, kind: PostKind, post: { id: number; parentId: string | number | null }, authorId: string, now: Date) {
  const place = await specOf(kind).notices(trx, post);
  if (!place) return [];
  return notify(
    trx,
    null,
    [{ memberId: authorId, kind: "moderation.pending", subject: `moderation:${place.subject}`, parent: null, title: place.title, url: "/notifications" }],
    now,
  );
}

/**
 * createPost's limits read ahead, recording nothing (ADR 0043): a service with expensive work to do
 * before createPost (an upload to decode) refuses cheaply first. `madeAlready` is the post a
 * repeated submission made, which needs no work at all.
 */
export function postAllowedAhead(
  services: AppServices,
  viewer: Viewer,
  post: Pick<NewPost, "kind" | "values" | "submissionKey" | "alsoSubmitted">,
  now = new Date(),
) {
  return postLimitsAhead(services.db, viewer, { kind: post.kind, submissionKey: submittedKey(post) }, now);
}

/** editOwnPost's limit read ahead, recording nothing: the write burst limit, where the kind's edits count. */
export async function editAllowedAhead(services: AppServices, viewer: Viewer, kind: PostKind, now = new Date()): Promise<Outcome<null>> {
  return specOf(kind).editsLimited ? writeLimitAhead(services.db, viewer, now) : { ok: true, value: null };
}

/** The author's edit: marked as edited; Forum edits also count against the write burst limit. */
export async function editOwnPost(
  services: AppServices,
  viewer: Viewer,
  kind: PostKind,
  id: number,
  change: { values: (post: PostRow) => Promise<Record<string, unknown>> | Record<string, unknown>; alsoWrite?: (trx: Db) => Promise<void> },
  now = new Date(),
): Promise<Outcome<PostRow>> {
  const own = await loadOwnPost(services.db, viewer, kind, id);
  if (!own.ok) return own;
  const speaking = await speakAllowed(services.db, viewer, now);
  if (!speaking.ok) return speaking;
  if (specOf(kind).editsLimited) {
    const allowed = await writeAllowed(services, viewer);
    if (!allowed.ok) return allowed;
  }
  const before = await findPostBody(services.db, kind, id);
  const { values, mentioned } = await withRenderedBody(services.db, specOf(kind), await change.values(own.value));
  const safeguarded = await newMemberSafeguards(services.db, viewer, values);
  if (!safeguarded.ok) return safeguarded;
  // An edit tells only those it names for the first time (issue 28).
  const named = new Set(before === undefined ? [] : mentionCandidates(before));
  const newlyMentioned = mentioned.filter((m) => !named.has(m.handle));
  const post = { id, parentId: own.value.parent_id };
  const told = await services.db.transaction().execute(async (trx) => {
    await keepRevision(trx, kind, id, values, now);
    await updateEdited(trx, kind, id, values, now.toISOString());
    await takePostImages(trx, values.body_html, now.toISOString());
    await change.alsoWrite?.(trx);
    // Found by its new words, and no longer by the old, from the commit on (issue 30).
    await indexSearch(trx, [{ kind, id }]);
    // A hidden post tells nobody: its readers cannot see it.
    return own.value.hidden_at === null ? noticePost(trx, kind, post, viewer.id, newlyMentioned, now, false) : [];
  });
  await wrotePost(services.db, kind, { id, parentId: own.value.parent_id, authorId: own.value.author_id });
  await ringBells(services, told);
  return own;
}

/**
 * history: the version an edit replaces is kept, with the words the edit removed and added (issue
 * 32), unless the edit comes within the grace period after posting or changes neither title nor
 * body. Read under the row's lock, so two edits at once keep each version once.
 */
async function keepRevision(trx: Db, kind: PostKind, id: number, values: Record<string, unknown>, now: Date) {
  await findPost(trx, kind, id, { lock: true });
  const before = await currentVersion(trx, kind, id);
  if (!before || now.getTime() - new Date(before.createdAt).getTime() < EDIT_GRACE_MS) return;
  const title = typeof values.title === "string" ? values.title : before.title;
  const body = typeof values.body === "string" ? values.body : before.body;
  if (title === before.title && body === before.body) return;
  const titleDiff = before.title !== null && title !== null && title !== before.title ? `<p class="diff-title">${wordDiffHtml(before.title, title)}</p>` : "";
  await insertRevision(trx, {
    kind,
    postId: id,
    title: before.title,
    body: before.body,
    writtenAt: toIso(before.editedAt ?? before.createdAt),
    replacedAt: now.toISOString(),
    diffHtml: `${titleDiff}<div class="diff-body">${wordDiffHtml(before.body, body)}</div>`,
  });
}

/**
 * The author deletes: the post shows as "[deleted]" while the thread stays readable; the counts
 * move (if it was showing) and its XP goes back, all in one transaction.
 */
export async function deleteOwnPost(services: AppServices, viewer: Viewer, kind: PostKind, id: number, now = new Date()): Promise<Outcome<PostRow>> {
  const own = await loadOwnPost(services.db, viewer, kind, id);
  if (!own.ok) return own;
  const deleted = await services.db.transaction().execute((trx) => deleteInTransaction(services, trx, kind, id, now));
  if (deleted) await wrotePost(services.db, kind, { id, parentId: own.value.parent_id, authorId: own.value.author_id });
  if (deleted) await ringBells(services, deleted.told);
  return own;
}

/**
 * Deletes a post inside the caller's transaction, for its author or for a moderator agreeing with
 * flags on /review (issue 31): marked deleted, out of the search index, out of the counts if it was
 * showing, what its kind also takes with it (an answer's accepted mark), its files, the XP it
 * earned and the notifications about it. Read again under the row's lock: a moderator's hide or a
 * second delete may have come between the caller's checks and this transaction, and the counts must
 * move by what the row is now. Undefined when it was deleted already; the caller names the page
 * tags after the commit (`wrotePost`) and rings the bells it returns.
 */
export async function deleteInTransaction(services: AppServices, trx: Db, kind: PostKind, id: number, now: Date) {
  const post = await findPost(trx, kind, id, { lock: true });
  if (!post || post.deleted_at !== null) return undefined;
  await markDeleted(trx, kind, id, now.toISOString());
  await indexSearch(trx, [{ kind, id }]);
  if (post.hidden_at === null) await countPost(trx, kind, { id, parentId: post.parent_id, createdAt: post.created_at }, -1);
  await specOf(kind).alsoDeletes?.(trx, id);
  await deletePostMedia(services, trx, kind, id);
  await takeBackPostXp(trx, kind, post.author_id, id);
  return { post, told: await forgetNotificationsAbout(trx, [`${kind}:${id}`]) };
}

/**
 * A moderator hides or restores a post of any kind: the counts follow what shows, and the action is
 * logged. Hiding what is hidden (or restoring what shows) changes and records nothing.
 */
export async function setPostHidden(
  services: AppServices,
  viewer: Viewer,
  kind: PostKind,
  id: number,
  hidden: boolean,
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const allowed = moderatorPolicy(viewer);
  if (!allowed.ok) return allowed;
  let told: string[] = [];
  const post = await services.db.transaction().execute(async (trx) => {
    const changed = await hideInTransaction(trx, kind, id, hidden, { actor: viewer.id, action: hidden ? "hide" : "restore" }, now);
    told = changed.told;
    return changed.post;
  });
  if (!post) return fail(404, specOf(kind).missing);
  await wrotePost(services.db, kind, { id, parentId: post.parent_id, authorId: post.author_id });
  await ringBells(services, told);
  return { ok: true, value: { id } };
}

/**
 * Hides or restores a post inside the caller's transaction, for a moderator or for the flags that
 * reached the threshold (issue 31, `byFlags`: logged as "auto-hide" under the member whose flag did
 * it, the author told without a name). Under the row's lock: two moderators hiding at once (or a
 * hide beside the author's delete) move the counts once. `post` is the row as it was (undefined when
 * there is none); `changed` is false when it already was as asked. The caller names the page tags
 * after the commit (`wrotePost`) and rings the bells.
 */
export async function hideInTransaction(
  trx: Db,
  kind: PostKind,
  id: number,
  hidden: boolean,
  by: { actor: string; action: ModerationLogAction; byFlags?: boolean },
  now: Date,
): Promise<{ post: PostRow | undefined; changed: boolean; told: string[] }> {
  const at = now.toISOString();
  const current = await findPost(trx, kind, id, { lock: true });
  if (!current || (current.hidden_at !== null) === hidden) return { post: current, changed: false, told: [] };
  await setHiddenAt(trx, kind, id, hidden ? at : null);
  // Out of everyone's results but moderators', with what is under it (issue 30).
  await indexSearch(trx, [{ kind, id }]);
  const delta = Number(!hidden && current.deleted_at === null) - Number(visible(current));
  await countPost(trx, kind, { id, parentId: current.parent_id, createdAt: current.created_at }, delta);
  await insertModerationAction(trx, { actor_id: by.actor, action: by.action, subject_type: kind, subject_id: id, created_at: at });
  // Hidden, its notifications go (nobody may open it); either way its author is told.
  const forgotten = hidden ? await forgetNotificationsAbout(trx, [`${kind}:${id}`]) : [];
  const told = [...forgotten, ...(await noticeModeration(trx, kind, current, hidden, by.byFlags ? null : by.actor, now, by.byFlags))];
  return { post: current, changed: true, told };
}
