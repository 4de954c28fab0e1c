import { createHmac } from "node:crypto";
import type { Logger } from "pino";
import type { AppServices, Viewer } from "../../context";
import { speakAllowed } from "../accounts/silence";
import type { Db } from "../../db/connect";
import type { PathId } from "~/lib/domain-values";
import { HELPFUL_RANK } from "~/lib/privileges";

export { HELPFUL_RANK };
import { isRankAtLeast, rankById } from "~/lib/ranks";
import { findMemberIdByEmail } from "../accounts/member-repository";
import { changedByRead, onCachedHit, tag, wrote } from "../../cache/page-tags";
import { awardXp, progressOf, revokeXp } from "../progression/progression-service";
import { createPost, deleteOwnPost, editOwnPost } from "../posts/pipeline";
import { fail, type Outcome } from "../outcome";
import type { Executor } from "../../db/executor";
import { specOf } from "../posts/post-kinds";
import { notify, ringBells, withdrawFromGroup } from "../notifications/notification-service";
import {
  acceptedAnswerOf,
  countView,
  deleteAdvisor,
  deleteHelpfulVote,
  latestHelpfulVoter,
  findAnswerAuthor,
  findVisibleAnswer,
  findVisibleQuestion,
  findVotableAnswer,
  insertHelpfulVote,
  insertView,
  insertQuestionVirtues,
  moveHelpfulCount,
  replaceQuestionVirtues,
  setAcceptedAnswer,
  upsertAdvisor,
} from "./council-repository";

export type { Outcome };

/**
 * What is the Council's own: a question's virtues, accepting an answer, helpful votes, views and
 * advisors. Asking, answering, editing and deleting go through the posting pipeline (domain/posts,
 * ADR 0017).
 */

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

// ---------------------------------------------------------------- asking and answering

export async function askQuestion(
  services: AppServices,
  viewer: Viewer,
  input: { title: string; body: string; virtues: string[]; submissionKey: string },
  now = new Date(),
): Promise<Outcome<{ id: number; pending: boolean }>> {
  const posted = await createPost(
    services,
    viewer,
    {
      kind: "question",
      parentId: null,
      values: { title: input.title, body: input.body, last_activity_at: now.toISOString() },
      submissionKey: input.submissionKey,
      // The same words under other virtues are another question (ADR 0052).
      alsoSubmitted: [input.virtues],
      alsoWrite: (trx, id) => insertQuestionVirtues(trx, id, input.virtues),
    },
    now,
  );
  return posted.ok ? { ok: true, value: { id: posted.value.id, pending: posted.value.pending } } : posted;
}

export async function answerQuestion(
  services: AppServices,
  viewer: Viewer,
  questionId: number,
  input: { body: string; submissionKey: string },
  now = new Date(),
): Promise<Outcome<{ id: number; pending: boolean }>> {
  const question = await findVisibleQuestion(services.db, questionId);
  if (!question) return fail(404, "Question not found");
  const posted = await createPost(
    services,
    viewer,
    { kind: "answer", parentId: questionId, values: { body: input.body }, submissionKey: input.submissionKey },
    now,
  );
  return posted.ok ? { ok: true, value: { id: posted.value.id, pending: posted.value.pending } } : posted;
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
  const speaking = await speakAllowed(db, viewer, now);
  if (!speaking.ok) return speaking;
  // The mark shows on the question; the Council's featured advisors are ranked by accepted answers.
  wrote(tag.question(questionId), tag.council);
  let told: string[] = [];
  const accepted = await db.transaction().execute(async (trx) => {
    const current = await acceptedAnswerOf(trx, questionId);
    let next: { id: number; author_id: string } | undefined;
    if (answerId !== null) {
      next = await findVisibleAnswer(trx, questionId, answerId);
      if (!next) return fail(404, "Answer not found");
    }
    if (current === (next?.id ?? null)) return { ok: true as const, value: { id: questionId } };
    if (current !== null) {
      const previous = await findAnswerAuthor(trx, current);
      if (previous) await revokeXp(trx, previous.author_id, "answer.accepted", previous.id);
    }
    await setAcceptedAnswer(trx, questionId, next?.id ?? null);
    if (next && next.author_id !== viewer.id) await awardXp(trx, next.author_id, "answer.accepted", next.id, now);
    if (next) told = await noticeAnswer(trx, { ...next, questionId }, "accepted", viewer.id, now);
    return { ok: true as const, value: { id: questionId } };
  });
  await ringBells(services, told);
  return accepted;
}

/** The helpful votes on one answer gather on one unread line of its author's. */
const helpfulGroup = (answerId: number) => `helpful:answer:${answerId}`;

/** The author of an answer is told it was accepted or marked helpful (helpful votes gather on one line). */
async function noticeAnswer(
  trx: Executor,
  answer: { id: number; author_id: string; questionId: number },
  kind: "accepted" | "helpful",
  actorId: string,
  now: Date,
) {
  const place = await specOf("answer").notices(trx, { id: answer.id, parentId: answer.questionId });
  if (!place) return [];
  const { subject, parent, title, url, quietIf } = place;
  return notify(
    trx,
    actorId,
    [{ memberId: answer.author_id, kind, subject, parent, title, url, quietIf, ...(kind === "helpful" ? { group: helpfulGroup(answer.id) } : {}) }],
    now,
  );
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
  const answer = await findVotableAnswer(db, answerId);
  if (!answer) return fail(404, "Answer not found");
  if (answer.author_id === viewer.id) return fail(403, "You cannot mark your own answer helpful.");
  const speaking = await speakAllowed(db, viewer, now);
  if (!speaking.ok) return speaking;
  const progress = await progressOf(db, viewer.id);
  if (!isRankAtLeast(progress.rank.id, HELPFUL_RANK)) {
    const rank = rankById(HELPFUL_RANK);
    return fail(403, `Marking answers helpful unlocks at the ${rank.label} rank (${rank.minXp} XP).`);
  }
  const subject = `${answerId}:${viewer.id}`;
  // The count shows on the question's page only.
  wrote(tag.question(Number(answer.question_id)));
  let told: string[] = [];
  await db.transaction().execute(async (trx) => {
    if (helpful) {
      if (!(await insertHelpfulVote(trx, answerId, viewer.id, now.toISOString()))) return; // voted already: counted once
      await moveHelpfulCount(trx, answerId, 1);
      await awardXp(trx, answer.author_id, "answer.helpful", subject, now);
      told = await noticeAnswer(trx, { id: answerId, author_id: answer.author_id, questionId: Number(answer.question_id) }, "helpful", viewer.id, now);
    } else {
      const votedAt = await deleteHelpfulVote(trx, answerId, viewer.id);
      if (votedAt === null) return;
      await moveHelpfulCount(trx, answerId, -1);
      await revokeXp(trx, answer.author_id, "answer.helpful", subject);
      told = await withdrawFromGroup(trx, {
        memberId: answer.author_id,
        group: helpfulGroup(answerId),
        actorId: viewer.id,
        actedAt: votedAt,
        nextActor: (since) => latestHelpfulVoter(trx, answerId, viewer.id, since),
      });
    }
  });
  await ringBells(services, told);
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
  const edited = await editOwnPost(
    services,
    viewer,
    "question",
    questionId,
    {
      values: () => ({ title: input.title, body: input.body }),
      alsoWrite: (trx) => replaceQuestionVirtues(trx, questionId, input.virtues),
    },
    now,
  );
  return edited.ok ? { ok: true, value: { id: questionId } } : edited;
}

export async function deleteQuestion(services: AppServices, viewer: Viewer, questionId: number, now = new Date()): Promise<Outcome<{ id: number }>> {
  const deleted = await deleteOwnPost(services, viewer, "question", questionId, now);
  return deleted.ok ? { ok: true, value: { id: questionId } } : deleted;
}

export async function editAnswer(
  services: AppServices,
  viewer: Viewer,
  answerId: number,
  input: { body: string },
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const edited = await editOwnPost(services, viewer, "answer", answerId, { values: () => ({ body: input.body }) }, now);
  return edited.ok ? { ok: true, value: { id: Number(edited.value.parent_id) } } : edited;
}

/** The answer shows as [deleted]; its XP (answering, acceptance, helpful votes) goes back, and so does the accepted mark. */
export async function deleteAnswer(services: AppServices, viewer: Viewer, answerId: number, now = new Date()): Promise<Outcome<{ id: number }>> {
  // The post kind's own cleanup takes off the accepted mark (post-kinds.ts).
  const deleted = await deleteOwnPost(services, viewer, "answer", answerId, now);
  return deleted.ok ? { ok: true, value: { id: Number(deleted.value.parent_id) } } : deleted;
}

// ---------------------------------------------------------------- views

/**
 * Who is viewing, as a key that is the same all day: a member by id, a visitor by an HMAC of the
 * address and the day under the site's secret, so the address is never stored and the key cannot
 * be linked across days.
 */
export function viewerKey(secret: string, viewer: Viewer | null, ip: string, at = new Date()) {
  if (viewer) return `m:${viewer.id}`;
  return `a:${createHmac("sha256", secret)
    .update(`${dayOf(at)}|${ip}`)
    .digest("base64url")
    .slice(0, 32)}`;
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
    if (!(await insertView(trx, questionId, key, day))) return false;
    await countView(trx, questionId);
    return true;
  });
}

/**
 * Counts a view of a question's page (ADR 0010): this request's, once per viewer and day, not
 * awaited so the page never waits on the count; and each visitor's the anonymous page cache serves
 * the page to later (ADR 0026). A counted view changes the count on the page: the page cache drops
 * it, at most once per short window, so the visitor sees their view on reload. The cards' counts
 * elsewhere catch up with their next change or the cache's TTL, as list counts do on Stack Exchange.
 */
export function countQuestionView(services: AppServices, questionId: number, viewer: Viewer | null, clientIp: string, logger: Logger) {
  const secret = services.env.AUTH_SECRET;
  const changed = [tag.question(questionId)];
  recordView(services.db, questionId, viewerKey(secret, viewer, clientIp))
    .then((added) => {
      if (added) changedByRead(...changed);
    })
    .catch((error) => logger.warn({ err: error }, "view not recorded"));
  onCachedHit(({ clientIp: visitorIp, invalidate }) => {
    recordView(services.db, questionId, viewerKey(secret, null, visitorIp))
      .then((added) => {
        if (added) invalidate?.(changed);
      })
      .catch((error) => logger.warn({ err: error }, "view not recorded"));
  });
}

// ---------------------------------------------------------------- advisors

export async function grantAdvisor(db: Db, email: string, path: PathId, specialty: string, now = new Date()) {
  const memberId = await findMemberIdByEmail(db, email.trim());
  if (!memberId) return false;
  await upsertAdvisor(db, { member_id: memberId, path, specialty, granted_at: now.toISOString() });
  // The Council features advisors; their answers carry the advisor badge wherever the member is an
  // author; the member's own kept pages offer hosting and publishing now (ADR 0040).
  wrote(tag.council, tag.member(memberId), tag.viewer(memberId));
  return true;
}

export async function revokeAdvisor(db: Db, email: string) {
  const memberId = await findMemberIdByEmail(db, email.trim());
  if (!memberId) return false;
  wrote(tag.council, tag.member(memberId), tag.viewer(memberId));
  return deleteAdvisor(db, memberId);
}
