import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { ModerationActionKind, SectionId } from "../../db/schema";
import { slugify } from "~/lib/slug";
import { excerptOf } from "~/lib/text";
import { TOPIC_RANK } from "~/lib/privileges";
import { isRankAtLeast, rankById } from "~/lib/ranks";
import { progressOf } from "../progression/progression-service";
import { XP } from "~/lib/xp";
import { deleteXpEvent, insertXpEvent } from "../progression/xp-repository";
import { findDiscussion, findReply, moveDiscussionCounts, moveTopicCounts } from "./forum-repository";
import { findTopic } from "./section-repository";
import { fail, isModerator, writeAllowed, type Outcome } from "../outcome";
import { postWithinLimits } from "../post-limits";
import { insertSubmitted } from "../submissions";

export type { Outcome };

/** Slugs our own routes use under a section. */
const RESERVED_TOPIC_IDS = new Set(["new", "edit", "page"]);

const visible = (post: { deleted_at: unknown; hidden_at: unknown }) => post.deleted_at === null && post.hidden_at === null;

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
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  const base = slugify(input.title, 50);
  return services.db.transaction().execute(async (trx) => {
    let id = RESERVED_TOPIC_IDS.has(base) ? `${base}-topic` : base;
    for (let n = 2; await trx.selectFrom("topic").select("id").where("id", "=", id).executeTakeFirst(); n++) {
      id = `${base}-${n}`;
    }
    await trx
      .insertInto("topic")
      .values({
        id,
        section,
        title: input.title,
        description: input.description,
        created_by: viewer.id,
        created_at: now.toISOString(),
        last_activity_at: now.toISOString(),
        member_count: 1,
      })
      .execute();
    await trx.insertInto("topic_member").values({ topic_id: id, member_id: viewer.id, joined_at: now.toISOString() }).execute();
    return { ok: true as const, value: { id } };
  });
}

export async function setTopicMembership(services: AppServices, viewer: Viewer, topicId: string, join: boolean, now = new Date()) {
  return services.db.transaction().execute(async (trx) => {
    if (join) {
      const inserted = await trx
        .insertInto("topic_member")
        .values({ topic_id: topicId, member_id: viewer.id, joined_at: now.toISOString() })
        .onConflict((oc) => oc.columns(["topic_id", "member_id"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
        await trx.updateTable("topic").set((eb) => ({ member_count: eb("member_count", "+", 1) })).where("id", "=", topicId).execute();
      }
    } else {
      const removed = await trx
        .deleteFrom("topic_member")
        .where("topic_id", "=", topicId)
        .where("member_id", "=", viewer.id)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) > 0) {
        await trx.updateTable("topic").set((eb) => ({ member_count: eb("member_count", "-", 1) })).where("id", "=", topicId).execute();
      }
    }
  });
}

// ---------------------------------------------------------------- discussions

export async function startDiscussion(
  services: AppServices,
  viewer: Viewer,
  section: SectionId,
  topicId: string,
  input: { title: string; body: string; submissionKey: string },
  now = new Date(),
): Promise<Outcome<{ id: number; slug: string }>> {
  const { db } = services;
  const topic = await findTopic(db, section, topicId);
  if (!topic) return fail(404, "Topic not found");
  const at = now.toISOString();
  return postWithinLimits(services, viewer, { table: "discussion", submissionKey: input.submissionKey }, now, async (trx) => {
    const inserted = await insertSubmitted(trx, "discussion", {
      topic_id: topic.id,
      author_id: viewer.id,
      title: input.title,
      slug: slugify(input.title),
      body: input.body,
      excerpt: excerptOf(input.body),
      created_at: at,
      last_activity_at: at,
      submission_key: input.submissionKey,
    });
    // The same form, submitted twice at the same moment: the first one won.
    if (!inserted.created) return { ok: true as const, value: await discussionRef(trx, inserted.id) };
    await moveTopicCounts(trx, topic.id, { discussions: 1, activityAt: at });
    await insertXpEvent(trx, {
      member_id: viewer.id,
      kind: "discussion.started",
      subject_id: String(inserted.id),
      points: XP["discussion.started"],
      created_at: at,
    });
    return { ok: true as const, value: { id: inserted.id, slug: slugify(input.title) } };
  });
}

async function discussionRef(db: Db, id: number) {
  return db.selectFrom("discussion").select(["id", "slug"]).where("id", "=", id).executeTakeFirstOrThrow();
}

export async function postReply(
  services: AppServices,
  viewer: Viewer,
  discussionId: number,
  input: { body: string; submissionKey: string },
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const { db } = services;
  const discussion = await findDiscussion(db, discussionId);
  if (!discussion || (discussion.hidden_at !== null && !isModerator(viewer))) return fail(404, "Discussion not found");
  if (discussion.locked_at !== null) return fail(403, "This discussion is locked. No new replies can be posted.");
  const at = now.toISOString();
  return postWithinLimits(services, viewer, { table: "reply", submissionKey: input.submissionKey }, now, async (trx) => {
    // Read again inside the transaction: a moderator may have locked it a moment ago.
    const current = await trx.selectFrom("discussion").select("locked_at").where("id", "=", discussionId).executeTakeFirstOrThrow();
    if (current.locked_at !== null) return fail(403, "This discussion is locked. No new replies can be posted.");
    const inserted = await insertSubmitted(trx, "reply", {
      discussion_id: discussionId,
      author_id: viewer.id,
      body: input.body,
      created_at: at,
      submission_key: input.submissionKey,
    });
    if (!inserted.created) return { ok: true as const, value: { id: inserted.id } };
    await moveDiscussionCounts(trx, discussionId, { replies: 1, activityAt: at });
    await moveTopicCounts(trx, discussion.topic_id, { replies: 1, activityAt: at });
    await insertXpEvent(trx, {
      member_id: viewer.id,
      kind: "reply.posted",
      subject_id: String(inserted.id),
      points: XP["reply.posted"],
      created_at: at,
    });
    return { ok: true as const, value: { id: inserted.id } };
  });
}

// ---------------------------------------------------------------- editing and deleting one's own posts

export type PostKind = "discussion" | "reply";

async function loadOwnPost(db: Db, viewer: Viewer, kind: PostKind, id: number) {
  const post = kind === "discussion" ? await findDiscussion(db, id) : await findReply(db, id);
  if (!post || post.deleted_at !== null || (post.hidden_at !== null && !isModerator(viewer))) return fail(404, "Post not found");
  if (post.author_id !== viewer.id) return fail(403, "You can only change your own posts.");
  return { ok: true as const, value: post };
}

export async function editPost(
  services: AppServices,
  viewer: Viewer,
  kind: PostKind,
  id: number,
  input: { title?: string; body: string },
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const own = await loadOwnPost(services.db, viewer, kind, id);
  if (!own.ok) return own;
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  const at = now.toISOString();
  if (kind === "discussion") {
    const title = input.title ?? (own.value as { title: string }).title;
    await services.db
      .updateTable("discussion")
      .set({ title, slug: slugify(title), body: input.body, excerpt: excerptOf(input.body), edited_at: at })
      .where("id", "=", id)
      .execute();
  } else {
    await services.db.updateTable("reply").set({ body: input.body, edited_at: at }).where("id", "=", id).execute();
  }
  return { ok: true, value: { id } };
}

/**
 * The post's text becomes "[deleted]" on the page while the thread stays readable; its XP is taken
 * back and the counts move, all in one transaction.
 */
export async function deletePost(services: AppServices, viewer: Viewer, kind: PostKind, id: number, now = new Date()): Promise<Outcome<{ id: number }>> {
  const own = await loadOwnPost(services.db, viewer, kind, id);
  if (!own.ok) return own;
  const post = own.value;
  const at = now.toISOString();
  await services.db.transaction().execute(async (trx) => {
    if (kind === "discussion") {
      await trx.updateTable("discussion").set({ deleted_at: at }).where("id", "=", id).where("deleted_at", "is", null).execute();
      if (post.hidden_at === null) await moveTopicCounts(trx, (post as { topic_id: string }).topic_id, { discussions: -1 });
      await deleteXpEvent(trx, viewer.id, "discussion.started", String(id));
    } else {
      const discussion = await trx
        .selectFrom("discussion")
        .select(["topic_id"])
        .where("id", "=", (post as { discussion_id: number }).discussion_id)
        .executeTakeFirstOrThrow();
      await trx.updateTable("reply").set({ deleted_at: at }).where("id", "=", id).where("deleted_at", "is", null).execute();
      if (post.hidden_at === null) {
        await moveDiscussionCounts(trx, (post as { discussion_id: number }).discussion_id, { replies: -1 });
        await moveTopicCounts(trx, discussion.topic_id, { replies: -1 });
      }
      await deleteXpEvent(trx, viewer.id, "reply.posted", String(id));
    }
  });
  return { ok: true, value: { id } };
}

// ---------------------------------------------------------------- moderation

const DISCUSSION_ONLY: ModerationActionKind[] = ["lock", "unlock", "feature", "unfeature"];

/** Moderators and admins hide, restore, lock and feature; every action is recorded. */
export async function moderate(
  services: AppServices,
  viewer: Viewer,
  action: ModerationActionKind,
  kind: PostKind,
  id: number,
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  if (!isModerator(viewer)) return fail(403, "Only moderators can do that.");
  if (kind === "reply" && DISCUSSION_ONLY.includes(action)) return fail(400, "That action applies to discussions only.");
  const { db } = services;
  const post = kind === "discussion" ? await findDiscussion(db, id) : await findReply(db, id);
  if (!post) return fail(404, "Post not found");
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    const topicId =
      kind === "discussion"
        ? (post as { topic_id: string }).topic_id
        : (
            await trx
              .selectFrom("discussion")
              .select("topic_id")
              .where("id", "=", (post as { discussion_id: number }).discussion_id)
              .executeTakeFirstOrThrow()
          ).topic_id;
    const wasVisible = visible(post);
    if (action === "hide" || action === "restore") {
      const hidden = action === "hide";
      if ((post.hidden_at !== null) === hidden) return; // already so: nothing to record
      const table = kind === "discussion" ? "discussion" : "reply";
      await trx.updateTable(table).set({ hidden_at: hidden ? at : null }).where("id", "=", id).execute();
      const nowVisible = !hidden && post.deleted_at === null;
      const delta = Number(nowVisible) - Number(wasVisible);
      if (delta !== 0) {
        if (kind === "discussion") await moveTopicCounts(trx, topicId, { discussions: delta });
        else {
          await moveDiscussionCounts(trx, (post as { discussion_id: number }).discussion_id, { replies: delta });
          await moveTopicCounts(trx, topicId, { replies: delta });
        }
      }
    } else {
      const column = action === "lock" || action === "unlock" ? "locked_at" : "featured_at";
      const on = action === "lock" || action === "feature";
      await trx.updateTable("discussion").set({ [column]: on ? at : null }).where("id", "=", id).execute();
    }
    await trx
      .insertInto("moderation_action")
      .values({ actor_id: viewer.id, action, subject_type: kind, subject_id: id, created_at: at })
      .execute();
  });
  return { ok: true, value: { id } };
}
