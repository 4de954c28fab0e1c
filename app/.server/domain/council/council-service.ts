import { createHmac } from "node:crypto";
import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { Path } from "../../db/schema";
import { excerptOf } from "~/lib/text";
import { HELPFUL_RANK } from "~/lib/privileges";

export { HELPFUL_RANK };
import { isRankAtLeast, rankById } from "~/lib/ranks";
import { awardXp, progressOf, revokeXp } from "../progression/progression-service";
import { fail, isModerator, type Outcome } from "../outcome";
import { postWithinLimits } from "../post-limits";
import { insertSubmitted } from "../submissions";

export type { Outcome };

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

async function findVisibleQuestion(db: Db, id: number) {
  return db
    .selectFrom("question")
    .select(["id", "author_id", "accepted_answer_id", "deleted_at", "hidden_at"])
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .where("hidden_at", "is", null)
    .executeTakeFirst();
}

// ---------------------------------------------------------------- asking and answering

export async function askQuestion(
  services: AppServices,
  viewer: Viewer,
  input: { title: string; body: string; virtues: string[]; submissionKey: string },
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const at = now.toISOString();
  return postWithinLimits(services, viewer, { table: "question", submissionKey: input.submissionKey }, now, async (trx) => {
    const inserted = await insertSubmitted(trx, "question", {
      author_id: viewer.id,
      title: input.title,
      body: input.body,
      excerpt: excerptOf(input.body),
      created_at: at,
      last_activity_at: at,
      submission_key: input.submissionKey,
    });
    if (!inserted.created) return { ok: true as const, value: { id: inserted.id } };
    await trx.insertInto("question_virtue").values(input.virtues.map((virtue) => ({ question_id: inserted.id, virtue }))).execute();
    await awardXp(trx, viewer.id, "question.asked", inserted.id, now);
    return { ok: true as const, value: { id: inserted.id } };
  });
}

export async function answerQuestion(
  services: AppServices,
  viewer: Viewer,
  questionId: number,
  input: { body: string; submissionKey: string },
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const { db } = services;
  const question = await findVisibleQuestion(db, questionId);
  if (!question) return fail(404, "Question not found");
  const at = now.toISOString();
  return postWithinLimits(services, viewer, { table: "answer", submissionKey: input.submissionKey }, now, async (trx) => {
    const inserted = await insertSubmitted(trx, "answer", {
      question_id: questionId,
      author_id: viewer.id,
      body: input.body,
      created_at: at,
      submission_key: input.submissionKey,
    });
    if (!inserted.created) return { ok: true as const, value: { id: inserted.id } };
    await trx
      .updateTable("question")
      .set((eb) => ({ answer_count: eb("answer_count", "+", 1), last_activity_at: at }))
      .where("id", "=", questionId)
      .execute();
    await awardXp(trx, viewer.id, "answer.posted", inserted.id, now);
    return { ok: true as const, value: { id: inserted.id } };
  });
}

// ---------------------------------------------------------------- accepting and voting

/**
 * The asker accepts one answer, may move the mark to another, or take it off. The 15 XP follow the
 * mark; accepting one's own answer earns nothing.
 */
export async function acceptAnswer(
  services: AppServices,
  viewer: Viewer,
  questionId: number,
  answerId: number | null,
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const { db } = services;
  const question = await findVisibleQuestion(db, questionId);
  if (!question) return fail(404, "Question not found");
  if (question.author_id !== viewer.id) return fail(403, "Only the person who asked can accept an answer.");
  return db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("question").select("accepted_answer_id").where("id", "=", questionId).executeTakeFirstOrThrow();
    let next: { id: number; author_id: string } | undefined;
    if (answerId !== null) {
      next = await trx
        .selectFrom("answer")
        .select(["id", "author_id"])
        .where("id", "=", answerId)
        .where("question_id", "=", questionId)
        .where("deleted_at", "is", null)
        .where("hidden_at", "is", null)
        .executeTakeFirst();
      if (!next) return fail(404, "Answer not found");
    }
    if (current.accepted_answer_id === (next?.id ?? null)) return { ok: true as const, value: { id: questionId } };
    if (current.accepted_answer_id !== null) {
      const previous = await trx.selectFrom("answer").select(["id", "author_id"]).where("id", "=", current.accepted_answer_id).executeTakeFirst();
      if (previous) await revokeXp(trx, previous.author_id, "answer.accepted", previous.id);
    }
    await trx.updateTable("question").set({ accepted_answer_id: next?.id ?? null }).where("id", "=", questionId).execute();
    if (next && next.author_id !== viewer.id) await awardXp(trx, next.author_id, "answer.accepted", next.id, now);
    return { ok: true as const, value: { id: questionId } };
  });
}

/** One helpful vote per member and answer, from acolyte on, never on one's own answer; undoable. */
export async function setHelpful(
  services: AppServices,
  viewer: Viewer,
  answerId: number,
  helpful: boolean,
  now = new Date(),
): Promise<Outcome<{ helpful: boolean }>> {
  const { db } = services;
  const answer = await db
    .selectFrom("answer")
    .innerJoin("question", "question.id", "answer.question_id")
    .select(["answer.id", "answer.author_id"])
    .where("answer.id", "=", answerId)
    .where("answer.deleted_at", "is", null)
    .where("answer.hidden_at", "is", null)
    .where("question.deleted_at", "is", null)
    .where("question.hidden_at", "is", null)
    .executeTakeFirst();
  if (!answer) return fail(404, "Answer not found");
  if (answer.author_id === viewer.id) return fail(403, "You cannot mark your own answer helpful.");
  const progress = await progressOf(db, viewer.id);
  if (!isRankAtLeast(progress.rank.id, HELPFUL_RANK)) {
    const rank = rankById(HELPFUL_RANK);
    return fail(403, `Marking answers helpful unlocks at the ${rank.label} rank (${rank.minXp} XP).`);
  }
  const subject = `${answerId}:${viewer.id}`;
  await db.transaction().execute(async (trx) => {
    if (helpful) {
      const inserted = await trx
        .insertInto("helpful_vote")
        .values({ answer_id: answerId, member_id: viewer.id, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(["answer_id", "member_id"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return; // voted already: counted once
      await trx.updateTable("answer").set((eb) => ({ helpful_count: eb("helpful_count", "+", 1) })).where("id", "=", answerId).execute();
      await awardXp(trx, answer.author_id, "answer.helpful", subject, now);
    } else {
      const removed = await trx.deleteFrom("helpful_vote").where("answer_id", "=", answerId).where("member_id", "=", viewer.id).executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) return;
      await trx.updateTable("answer").set((eb) => ({ helpful_count: eb("helpful_count", "-", 1) })).where("id", "=", answerId).execute();
      await revokeXp(trx, answer.author_id, "answer.helpful", subject);
    }
  });
  return { ok: true, value: { helpful } };
}

// ---------------------------------------------------------------- editing and deleting one's own posts

export async function editQuestion(
  services: AppServices,
  viewer: Viewer,
  questionId: number,
  input: { title: string; body: string; virtues: string[] },
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const question = await findVisibleQuestion(services.db, questionId);
  if (!question) return fail(404, "Question not found");
  if (question.author_id !== viewer.id) return fail(403, "You can only change your own posts.");
  await services.db.transaction().execute(async (trx) => {
    await trx.updateTable("question").set({ title: input.title, body: input.body, excerpt: excerptOf(input.body), edited_at: now.toISOString() }).where("id", "=", questionId).execute();
    await trx.deleteFrom("question_virtue").where("question_id", "=", questionId).execute();
    await trx.insertInto("question_virtue").values(input.virtues.map((virtue) => ({ question_id: questionId, virtue }))).execute();
  });
  return { ok: true, value: { id: questionId } };
}

export async function deleteQuestion(services: AppServices, viewer: Viewer, questionId: number, now = new Date()): Promise<Outcome<{ id: number }>> {
  const question = await findVisibleQuestion(services.db, questionId);
  if (!question) return fail(404, "Question not found");
  if (question.author_id !== viewer.id) return fail(403, "You can only change your own posts.");
  await services.db.transaction().execute(async (trx) => {
    await trx.updateTable("question").set({ deleted_at: now.toISOString() }).where("id", "=", questionId).execute();
    await revokeXp(trx, viewer.id, "question.asked", questionId);
  });
  return { ok: true, value: { id: questionId } };
}

async function findOwnAnswer(db: Db, viewer: Viewer, answerId: number) {
  const answer = await db
    .selectFrom("answer")
    .select(["id", "author_id", "question_id", "deleted_at", "hidden_at"])
    .where("id", "=", answerId)
    .executeTakeFirst();
  if (!answer || answer.deleted_at !== null || (answer.hidden_at !== null && !isModerator(viewer))) return fail(404, "Answer not found");
  if (answer.author_id !== viewer.id) return fail(403, "You can only change your own posts.");
  return { ok: true as const, value: answer };
}

export async function editAnswer(services: AppServices, viewer: Viewer, answerId: number, input: { body: string }, now = new Date()): Promise<Outcome<{ id: number }>> {
  const own = await findOwnAnswer(services.db, viewer, answerId);
  if (!own.ok) return own;
  await services.db.updateTable("answer").set({ body: input.body, edited_at: now.toISOString() }).where("id", "=", answerId).execute();
  return { ok: true, value: { id: own.value.question_id } };
}

/** The answer shows as [deleted]; its XP (answering, acceptance, helpful votes) goes back. */
export async function deleteAnswer(services: AppServices, viewer: Viewer, answerId: number, now = new Date()): Promise<Outcome<{ id: number }>> {
  const own = await findOwnAnswer(services.db, viewer, answerId);
  if (!own.ok) return own;
  await services.db.transaction().execute(async (trx) => {
    await trx.updateTable("answer").set({ deleted_at: now.toISOString() }).where("id", "=", answerId).execute();
    await trx.updateTable("question").set((eb) => ({ answer_count: eb("answer_count", "-", 1) })).where("id", "=", own.value.question_id).execute();
    await trx.updateTable("question").set({ accepted_answer_id: null }).where("accepted_answer_id", "=", answerId).execute();
    await trx.deleteFrom("xp_event").where("member_id", "=", viewer.id).where("kind", "in", ["answer.posted", "answer.accepted"]).where("subject_id", "=", String(answerId)).execute();
    await trx.deleteFrom("xp_event").where("member_id", "=", viewer.id).where("kind", "=", "answer.helpful").where("subject_id", "like", `${answerId}:%`).execute();
  });
  return { ok: true, value: { id: own.value.question_id } };
}

// ---------------------------------------------------------------- views

/**
 * Who is viewing, as a key that is the same all day: a member by id, a visitor by an HMAC of the
 * address and the day under the site's secret, so the address is never stored and the key cannot
 * be linked across days.
 */
export function viewerKey(secret: string, viewer: Viewer | null, ip: string, at = new Date()) {
  if (viewer) return `m:${viewer.id}`;
  return `a:${createHmac("sha256", secret).update(`${dayOf(at)}|${ip}`).digest("base64url").slice(0, 32)}`;
}

/** Views this process has already written today, per database; the unique key is the real guard. */
const recentViews = new WeakMap<Db, { day: string; seen: Set<string> }>();
const RECENT_LIMIT = 100_000;

/** Counts one view per viewer per question per UTC day, writing at most once per viewer and day. */
export async function recordView(db: Db, questionId: number, key: string, at = new Date()): Promise<boolean> {
  const day = dayOf(at);
  let recent = recentViews.get(db);
  if (!recent || recent.day !== day || recent.seen.size > RECENT_LIMIT) {
    recent = { day, seen: new Set() };
    recentViews.set(db, recent);
  }
  const memo = `${questionId}|${key}`;
  if (recent.seen.has(memo)) return false;
  recent.seen.add(memo);
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("question_view")
      .values({ question_id: questionId, viewer_key: key, day })
      .onConflict((oc) => oc.columns(["question_id", "viewer_key", "day"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await trx.updateTable("question").set((eb) => ({ view_count: eb("view_count", "+", 1) })).where("id", "=", questionId).execute();
    return true;
  });
}

// ---------------------------------------------------------------- advisors

export async function grantAdvisor(db: Db, email: string, path: Path, specialty: string, now = new Date()) {
  const member = await db.selectFrom("member").select("id").where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
  if (!member) return false;
  await db
    .insertInto("advisor")
    .values({ member_id: member.id, path, specialty, granted_at: now.toISOString() })
    .onConflict((oc) => oc.column("member_id").doUpdateSet({ path, specialty }))
    .execute();
  return true;
}

export async function revokeAdvisor(db: Db, email: string) {
  const member = await db.selectFrom("member").select("id").where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
  if (!member) return false;
  const result = await db.deleteFrom("advisor").where("member_id", "=", member.id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
