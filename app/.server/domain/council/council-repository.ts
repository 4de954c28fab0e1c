import { engineOf, type Db } from "../../db/connect";
import type { PathId } from "~/lib/domain-values";
import { activityPage, type ActivityCursor, type PageRequest } from "../../pagination";
import { latestMarker } from "../posts/mark-repository";
import { AUTHOR_COLUMNS } from "../progression/authors";

function questionRows(db: Db, { includeHidden = false } = {}) {
  const rows = db
    .selectFrom("question")
    .innerJoin("member", "member.id", "question.author_id")
    .select([
      "question.id",
      "question.title",
      "question.body",
      "question.body_html",
      "question.excerpt",
      "question.view_count",
      "question.answer_count",
      "question.accepted_answer_id",
      "question.created_at",
      "question.edited_at",
      "question.hidden_at",
      "question.author_id",
      ...AUTHOR_COLUMNS,
    ])
    .where("question.deleted_at", "is", null);
  return includeHidden ? rows : rows.where("question.hidden_at", "is", null);
}

/** Virtues of many questions in one query. */
export async function questionVirtues(db: Db, questionIds: number[]) {
  const map = new Map<number, string[]>();
  if (questionIds.length === 0) return map;
  const rows = await db
    .selectFrom("question_virtue")
    .select(["question_id", "virtue"])
    .where("question_id", "in", questionIds)
    .orderBy("question_id")
    .orderBy("virtue")
    .execute();
  for (const row of rows) map.set(row.question_id, [...(map.get(row.question_id) ?? []), row.virtue]);
  return map;
}

export interface QuestionFilter {
  /** Only questions tagged with this virtue. */
  virtue?: string;
  /** Only questions without an answer. */
  unanswered?: boolean;
}

function filtered(db: Db, filter: QuestionFilter) {
  let query = questionRows(db);
  if (filter.virtue) {
    const virtue = filter.virtue;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("question_virtue")
          .select("question_virtue.question_id")
          .whereRef("question_virtue.question_id", "=", "question.id")
          .where("question_virtue.virtue", "=", virtue),
      ),
    );
  }
  if (filter.unanswered) query = query.where("question.answer_count", "=", 0);
  return query;
}

export async function recentQuestions(db: Db, limit = 5, filter: QuestionFilter = {}) {
  return filtered(db, filter).orderBy("question.created_at", "desc").orderBy("question.id", "desc").limit(limit).execute();
}

/** A keyset page of questions, newest first: (created_at, id) below or above the cursor. */
export async function questionPageRows(db: Db, filter: QuestionFilter, request: PageRequest<ActivityCursor>, limit: number) {
  // One index range on question_created_idx.
  return activityPage(filtered(db, filter), ["question.created_at", "question.id"], request, limit);
}

/** A question that is not deleted; a hidden one too when asked (its page decides who sees it, issue 31). */
export async function findQuestion(db: Db, id: number, { includeHidden = false } = {}) {
  return questionRows(db, { includeHidden }).where("question.id", "=", id).executeTakeFirst();
}

/** A question's answers, deleted ones included; hidden ones too when asked. */
export async function listAnswers(db: Db, questionId: number, { includeHidden = false } = {}) {
  return db
    .selectFrom("answer")
    .innerJoin("member", "member.id", "answer.author_id")
    .leftJoin("advisor", "advisor.member_id", "answer.author_id")
    .select([
      "answer.id",
      "answer.body",
      "answer.body_html",
      "answer.helpful_count",
      "answer.created_at",
      "answer.edited_at",
      "answer.deleted_at",
      "answer.hidden_at",
      "answer.author_id",
      ...AUTHOR_COLUMNS,
      "advisor.path as advisor_path",
      "advisor.specialty as advisor_specialty",
    ])
    .where("answer.question_id", "=", questionId)
    .$if(!includeHidden, (q) => q.where("answer.hidden_at", "is", null))
    .orderBy("answer.helpful_count", "desc")
    .orderBy("answer.id", "asc")
    .execute();
}

/** An answer to quote (issue 32): its question, text, state and author's name. */
export async function findAnswerToQuote(db: Db, answerId: number) {
  return db
    .selectFrom("answer")
    .innerJoin("member", "member.id", "answer.author_id")
    .select(["answer.id", "answer.question_id", "answer.body", "answer.hidden_at", "answer.deleted_at", "answer.author_id", "member.name as author_name"])
    .where("answer.id", "=", answerId)
    .executeTakeFirst();
}

/** The advisors with the most accepted answers, with how many questions each has answered. */
export async function featuredAdvisors(db: Db, limit = 3) {
  return db
    .selectFrom("advisor")
    .innerJoin("member", "member.id", "advisor.member_id")
    .select((eb) => [
      "advisor.member_id as author_id",
      ...AUTHOR_COLUMNS,
      "advisor.path",
      "advisor.specialty",
      eb
        .selectFrom("answer")
        .innerJoin("question", "question.accepted_answer_id", "answer.id")
        .select((s) => s.fn.countAll<number>().as("n"))
        .whereRef("answer.author_id", "=", "advisor.member_id")
        .where("answer.deleted_at", "is", null)
        .as("accepted_answers"),
      eb
        .selectFrom("answer")
        .select((s) => s.fn.count<number>("answer.question_id").distinct().as("n"))
        .whereRef("answer.author_id", "=", "advisor.member_id")
        .where("answer.deleted_at", "is", null)
        .as("questions_answered"),
    ])
    .orderBy("accepted_answers", "desc")
    .orderBy("questions_answered", "desc")
    .orderBy("member.name", "asc")
    .limit(limit)
    .execute();
}

/** The virtues an advisor is known for: the most frequent tags of the questions they answered. */
export async function advisorVirtues(db: Db, memberIds: string[], perAdvisor = 3) {
  const map = new Map<string, string[]>();
  if (memberIds.length === 0) return map;
  const rows = await db
    .selectFrom("answer")
    .innerJoin("question_virtue", "question_virtue.question_id", "answer.question_id")
    .select(["answer.author_id", "question_virtue.virtue", (eb) => eb.fn.countAll<number>().as("n")])
    .where("answer.author_id", "in", memberIds)
    .where("answer.deleted_at", "is", null)
    .groupBy(["answer.author_id", "question_virtue.virtue"])
    .orderBy("answer.author_id")
    .orderBy("n", "desc")
    .orderBy("question_virtue.virtue")
    .execute();
  for (const row of rows) {
    const list = map.get(row.author_id) ?? [];
    if (list.length < perAdvisor) map.set(row.author_id, [...list, row.virtue]);
  }
  return map;
}

/** A question that shows (neither deleted nor hidden), with what its rules need. */
export async function findVisibleQuestion(db: Db, id: number) {
  return db
    .selectFrom("question")
    .select(["id", "author_id", "accepted_answer_id", "deleted_at", "hidden_at"])
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .where("hidden_at", "is", null)
    .executeTakeFirst();
}

export async function insertQuestionVirtues(db: Db, questionId: number, virtues: readonly string[]) {
  await db
    .insertInto("question_virtue")
    .values(virtues.map((virtue) => ({ question_id: questionId, virtue })))
    .execute();
}

export async function replaceQuestionVirtues(db: Db, questionId: number, virtues: readonly string[]) {
  await db.deleteFrom("question_virtue").where("question_id", "=", questionId).execute();
  await insertQuestionVirtues(db, questionId, virtues);
}

/**
 * The question's accepted answer, read under the question row's lock until the transaction ends
 * (PostgreSQL's `for update`; SQLite's writers take turns anyway): acceptances of one question then
 * go one at a time, and each moves the authors' XP rows after the question's, never in the opposite
 * order to another (parallel accepts deadlocked on PostgreSQL).
 */
export async function acceptedAnswerOf(db: Db, questionId: number) {
  let query = db.selectFrom("question").select("accepted_answer_id").where("id", "=", questionId);
  if (engineOf(db) === "postgres") query = query.forUpdate();
  const row = await query.executeTakeFirstOrThrow();
  return row.accepted_answer_id;
}

/** An answer to this question that shows, and so may be accepted. */
export async function findVisibleAnswer(db: Db, questionId: number, answerId: number) {
  return db
    .selectFrom("answer")
    .select(["id", "author_id"])
    .where("id", "=", answerId)
    .where("question_id", "=", questionId)
    .where("deleted_at", "is", null)
    .where("hidden_at", "is", null)
    .executeTakeFirst();
}

export async function findAnswerAuthor(db: Db, answerId: number) {
  return db.selectFrom("answer").select(["id", "author_id"]).where("id", "=", answerId).executeTakeFirst();
}

export async function setAcceptedAnswer(db: Db, questionId: number, answerId: number | null) {
  await db.updateTable("question").set({ accepted_answer_id: answerId }).where("id", "=", questionId).execute();
}

/** Takes the accepted mark off whichever question carries this answer. */
export async function clearAcceptedMark(db: Db, answerId: number) {
  await db.updateTable("question").set({ accepted_answer_id: null }).where("accepted_answer_id", "=", answerId).execute();
}

/** An answer that may get a helpful vote: it and its question show. */
export async function findVotableAnswer(db: Db, answerId: number) {
  return db
    .selectFrom("answer")
    .innerJoin("question", "question.id", "answer.question_id")
    .select(["answer.id", "answer.author_id", "answer.question_id"])
    .where("answer.id", "=", answerId)
    .where("answer.deleted_at", "is", null)
    .where("answer.hidden_at", "is", null)
    .where("question.deleted_at", "is", null)
    .where("question.hidden_at", "is", null)
    .executeTakeFirst();
}

/** Records a helpful vote; false when this member had voted already. */
export async function insertHelpfulVote(db: Db, answerId: number, memberId: string, at: string) {
  const inserted = await db
    .insertInto("helpful_vote")
    .values({ answer_id: answerId, member_id: memberId, created_at: at })
    .onConflict((oc) => oc.columns(["answer_id", "member_id"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes a helpful vote; false when there was none. */
export async function deleteHelpfulVote(db: Db, answerId: number, memberId: string) {
  const removed = await db
    .deleteFrom("helpful_vote")
    .where("answer_id", "=", answerId)
    .where("member_id", "=", memberId)
    .returning("created_at")
    .executeTakeFirst();
  return removed?.created_at ?? null;
}

/** The member who marked the answer helpful last, since `since` (all when null), other than `except`. */
export function latestHelpfulVoter(db: Db, answerId: number, except: string, since: string | null) {
  return latestMarker(db, "helpful_vote", { answer_id: answerId }, except, since);
}

export async function moveHelpfulCount(db: Db, answerId: number, delta: number) {
  await db
    .updateTable("answer")
    .set((eb) => ({ helpful_count: eb("helpful_count", "+", delta) }))
    .where("id", "=", answerId)
    .execute();
}

/** Which of these answers the member marked helpful. */
export async function votedAnswerIds(db: Db, memberId: string, answerIds: readonly number[]) {
  if (answerIds.length === 0) return new Set<number>();
  const rows = await db
    .selectFrom("helpful_vote")
    .select("answer_id")
    .where("member_id", "=", memberId)
    .where("answer_id", "in", [...answerIds])
    .execute();
  return new Set(rows.map((v) => v.answer_id));
}

/** Records one view for a viewer and day; false when it was recorded already. */
export async function insertView(db: Db, questionId: number, viewerKey: string, day: string) {
  const inserted = await db
    .insertInto("question_view")
    .values({ question_id: questionId, viewer_key: viewerKey, day })
    .onConflict((oc) => oc.columns(["question_id", "viewer_key", "day"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function countView(db: Db, questionId: number) {
  await db
    .updateTable("question")
    .set((eb) => ({ view_count: eb("view_count", "+", 1) }))
    .where("id", "=", questionId)
    .execute();
}

export async function upsertAdvisor(db: Db, advisor: { member_id: string; path: PathId; specialty: string; granted_at: string }) {
  await db
    .insertInto("advisor")
    .values(advisor)
    .onConflict((oc) => oc.column("member_id").doUpdateSet({ path: advisor.path, specialty: advisor.specialty }))
    .execute();
}

/** False when the member was no advisor. */
export async function deleteAdvisor(db: Db, memberId: string) {
  const result = await db.deleteFrom("advisor").where("member_id", "=", memberId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every advisor with their member's name and address, for the admin page. */
export async function listAdvisors(db: Db) {
  return db
    .selectFrom("advisor")
    .innerJoin("member", "member.id", "advisor.member_id")
    .select(["member.name", "member.email", "advisor.path", "advisor.specialty", "advisor.granted_at"])
    .orderBy("member.name")
    .execute();
}
