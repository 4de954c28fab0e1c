import { deleteWatch, setWatchLevel } from "../notifications/notification-repository";
import type { AppServices, Viewer } from "../../context";
import { speakAllowed } from "../accounts/silence";
import { BLOCK_MESSAGES, blockedEitherWay } from "../blocks/block-service";
import type { ModerationActionKind } from "../../db/schema";
import type { SectionId } from "~/lib/domain-values";
import { slugify } from "~/lib/slug";
import { TOPIC_RANK } from "~/lib/privileges";
import { isRankAtLeast, rankById } from "~/lib/ranks";
import { progressOf } from "../progression/progression-service";
import { tag, wrote } from "../../cache/page-tags";
import { isModerator } from "../accounts/roles";
import { createPost, deleteOwnPost, editOwnPost, logModeration, moderatorPolicy, postPageTags, setPostHidden } from "../posts/pipeline";
import { discussionRef, findDiscussion, findReply, isLocked, setDiscussionMark } from "./forum-repository";
import { addTopicMember, findTopic, insertTopicIfFree, moveTopicMembers, removeTopicMember, topicOfDiscussion } from "./section-repository";
import { fail, writeAllowed, type Outcome } from "../outcome";

export type { Outcome };

/**
 * What is the Forum's own: topics and their members, and a discussion's lock and feature marks.
 * Posting, editing, deleting and hiding discussions and replies go through the posting pipeline
 * (domain/posts, ADR 0017).
 */

/** Slugs our own routes use under a section. */
const RESERVED_TOPIC_IDS = new Set(["new", "edit", "page"]);

const LOCKED = "This discussion is locked. No new replies can be posted.";

// ---------------------------------------------------------------- topics

export async function createTopic(
  services: AppServices,
  viewer: Viewer,
  section: SectionId,
  input: { title: string; description: string },
  now = new Date(),
): Promise<Outcome<{ id: string }>> {
  const progress = await progressOf(services.db, viewer.id);
  if (!isRankAtLeast(progress.rank.id, TOPIC_RANK)) {
    const rank = rankById(TOPIC_RANK);
    return fail(403, `Creating topics unlocks at the ${rank.label} rank (${rank.minXp} XP).`);
  }
  const speaking = await speakAllowed(services.db, viewer, now);
  if (!speaking.ok) return speaking;
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  const base = slugify(input.title, 50);
  const at = now.toISOString();
  const created = await services.db.transaction().execute(async (trx) => {
    const topic = { section, title: input.title, description: input.description, created_by: viewer.id, created_at: at, last_activity_at: at, member_count: 1 };
    let id = RESERVED_TOPIC_IDS.has(base) ? `${base}-topic` : base;
    for (let n = 2; !(await insertTopicIfFree(trx, { ...topic, id })); n++) id = `${base}-${n}`;
    await addTopicMember(trx, id, viewer.id, at);
    return { ok: true as const, value: { id } };
  });
  // The section lists its topics (and `/` the first of them).
  wrote(tag.section(section), tag.topic(created.value.id));
  return created;
}

export async function setTopicMembership(services: AppServices, viewer: Viewer, topicId: string, join: boolean, now = new Date()) {
  // The member count shows on the topic and in its section's list.
  const { section } = await topicOfDiscussion(services.db, topicId);
  wrote(tag.topic(topicId), tag.section(section));
  return services.db.transaction().execute(async (trx) => {
    // 'Join Topic' means watching it: every new discussion in it notifies (issue 28).
    if (join) {
      if (await addTopicMember(trx, topicId, viewer.id, now.toISOString())) await moveTopicMembers(trx, topicId, 1);
      await setWatchLevel(trx, viewer.id, `topic:${topicId}`, "watching", now.toISOString());
    } else if (await removeTopicMember(trx, topicId, viewer.id)) {
      await moveTopicMembers(trx, topicId, -1);
      await deleteWatch(trx, viewer.id, `topic:${topicId}`);
    }
  });
}

// ---------------------------------------------------------------- discussions and replies

export async function startDiscussion(
  services: AppServices,
  viewer: Viewer,
  section: SectionId,
  topicId: string,
  input: { title: string; body: string; submissionKey: string },
  now = new Date(),
): Promise<Outcome<{ id: number; slug: string; pending: boolean }>> {
  const topic = await findTopic(services.db, section, topicId);
  if (!topic) return fail(404, "Topic not found");
  const slug = slugify(input.title);
  const at = now.toISOString();
  const posted = await createPost(
    services,
    viewer,
    {
      kind: "discussion",
      parentId: topic.id,
      values: { title: input.title, slug, body: input.body, last_activity_at: at },
      submissionKey: input.submissionKey,
    },
    now,
  );
  if (!posted.ok) return posted;
  // A double submit answers with the first post, whose title may have been another.
  const ref = posted.value.created ? { id: posted.value.id, slug } : await discussionRef(services.db, posted.value.id);
  return { ok: true, value: { ...ref, pending: posted.value.pending } };
}

type DiscussionRow = NonNullable<Awaited<ReturnType<typeof findDiscussion>>>;

/** A reply names a reply it answers (issue 32) that is not one of its discussion's, or not one the member can see. */
export const REPLY_TO_MISSING = "The reply you answer is not in this discussion.";

export async function postReply(
  services: AppServices,
  viewer: Viewer,
  discussionId: number,
  input: { body: string; submissionKey: string; replyTo?: number | null },
  now = new Date(),
  /** The discussion as the caller read it for this request, if it did. */
  read?: DiscussionRow,
): Promise<Outcome<{ id: number; pending: boolean }>> {
  const discussion = read ?? (await findDiscussion(services.db, discussionId));
  if (!discussion || (discussion.hidden_at !== null && !isModerator(viewer))) return fail(404, "Discussion not found");
  if (discussion.locked_at !== null) return fail(403, LOCKED);
  if (await blockedEitherWay(services.db, viewer.id, discussion.author_id)) return fail(403, BLOCK_MESSAGES.reply);
  const replyTo = input.replyTo ?? null;
  if (replyTo !== null) {
    const answered = await findReply(services.db, replyTo);
    if (!answered || answered.discussion_id !== discussionId || (answered.hidden_at !== null && !isModerator(viewer))) return fail(400, REPLY_TO_MISSING);
  }
  const posted = await createPost(
    services,
    viewer,
    {
      kind: "reply",
      parentId: discussionId,
      values: { body: input.body, reply_to_id: replyTo },
      submissionKey: input.submissionKey,
      // Read again inside the transaction: a moderator may have locked it a moment ago.
      recheck: async (trx) => ((await isLocked(trx, discussionId)) ? fail(403, LOCKED) : { ok: true, value: null }),
    },
    now,
  );
  return posted.ok ? { ok: true, value: { id: posted.value.id, pending: posted.value.pending } } : posted;
}

// ---------------------------------------------------------------- editing and deleting one's own posts

/** The posts of the Forum; the pipeline writes their excerpts with them (the kind says so). */
export type ForumPostKind = "discussion" | "reply";

export async function editForumPost(
  services: AppServices,
  viewer: Viewer,
  kind: ForumPostKind,
  id: number,
  input: { title?: string; body: string },
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const edited = await editOwnPost(
    services,
    viewer,
    kind,
    id,
    {
      values: async () => {
        if (kind === "reply") return { body: input.body };
        const title = input.title ?? (await findDiscussion(services.db, id))!.title;
        return { title, slug: slugify(title), body: input.body };
      },
    },
    now,
  );
  return edited.ok ? { ok: true, value: { id } } : edited;
}

/**
 * The post's text becomes "[deleted]" on the page while the thread stays readable; its XP is taken
 * back and the counts move, all in one transaction.
 */
export async function deleteForumPost(
  services: AppServices,
  viewer: Viewer,
  kind: ForumPostKind,
  id: number,
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const deleted = await deleteOwnPost(services, viewer, kind, id, now);
  return deleted.ok ? { ok: true, value: { id } } : deleted;
}

// ---------------------------------------------------------------- moderation

const DISCUSSION_ONLY: ModerationActionKind[] = ["lock", "unlock", "feature", "unfeature"];

/** Moderators and admins hide, restore, lock and feature; every action is recorded. */
export async function moderate(
  services: AppServices,
  viewer: Viewer,
  action: ModerationActionKind,
  kind: ForumPostKind,
  id: number,
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const allowed = moderatorPolicy(viewer);
  if (!allowed.ok) return allowed;
  if (kind === "reply" && DISCUSSION_ONLY.includes(action)) return fail(400, "That action applies to discussions only.");
  if (action === "hide" || action === "restore") return setPostHidden(services, viewer, kind, id, action === "hide", now);
  // Locking and featuring are the Forum's own marks on a discussion.
  const discussion = await findDiscussion(services.db, id);
  if (!discussion) return fail(404, "Post not found");
  const at = now.toISOString();
  await services.db.transaction().execute(async (trx) => {
    const mark = action === "lock" || action === "unlock" ? "locked_at" : "featured_at";
    await setDiscussionMark(trx, id, mark, action === "lock" || action === "feature" ? at : null);
    await logModeration(trx, viewer, action, "discussion", id, at);
  });
  // Its badges show in the topic's list, and featuring moves the featured lists of the section and `/`.
  // Related lists show titles alone: a lock or a feature leaves them as they were.
  wrote(...(await postPageTags(services.db, "discussion", id, discussion.topic_id)).filter((t) => !t.startsWith("related:")));
  return { ok: true, value: { id } };
}
