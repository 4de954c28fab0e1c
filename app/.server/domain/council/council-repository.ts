import type { Db } from "../../db/connect";
import { slicePage, walksForward, type ActivityCursor, type PageRequest } from "../../pagination";

function questionRows(db: Db) {
  return db
    .selectFrom("question")
    .innerJoin("member", "member.id", "question.author_id")
    .select([
      "question.id",
      "question.title",
      "question.body",
      "question.excerpt",
      "question.view_count",
      "question.answer_count",
      "question.accepted_answer_id",
      "question.created_at",
      "question.edited_at",
      "question.author_id",
      "member.name as author_name",
      "member.handle as author_handle",
    ])
    .where("question.deleted_at", "is", null)
    .where("question.hidden_at", "is", null);
}

/** Virtues of many questions in one query. */
export async function virtuesOf(db: Db, questionIds: number[]) {
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
  let query = filtered(db, filter);
  const newestFirst = walksForward(request);
  if (request.kind === "after" || request.kind === "before") {
    const { at, id } = request.cursor;
    const op = request.kind === "after" ? "<" : ">";
    query = query.where((eb) =>
      eb.or([eb("question.created_at", op, at), eb.and([eb("question.created_at", "=", at), eb("question.id", op, id)])]),
    );
  }
  const direction = newestFirst ? "desc" : "asc";
  const rows = await query.orderBy("question.created_at", direction).orderBy("question.id", direction).limit(limit + 1).execute();
  const page = slicePage(rows, limit, request);
  return { rows: page.rows, hasNewer: page.hasPrevious, hasOlder: page.hasNext };
}

export async function findQuestion(db: Db, id: number) {
  return questionRows(db).where("question.id", "=", id).executeTakeFirst();
}

export async function listAnswers(db: Db, questionId: number) {
  return db
    .selectFrom("answer")
    .innerJoin("member", "member.id", "answer.author_id")
    .leftJoin("advisor", "advisor.member_id", "answer.author_id")
    .select([
      "answer.id",
      "answer.body",
      "answer.helpful_count",
      "answer.created_at",
      "answer.edited_at",
      "answer.deleted_at",
      "answer.author_id",
      "member.name as author_name",
      "member.handle as author_handle",
      "advisor.path as advisor_path",
      "advisor.specialty as advisor_specialty",
    ])
    .where("answer.question_id", "=", questionId)
    .where("answer.hidden_at", "is", null)
    .orderBy("answer.helpful_count", "desc")
    .orderBy("answer.id", "asc")
    .execute();
}

/** The advisors with the most accepted answers, with how many questions each has answered. */
export async function featuredAdvisors(db: Db, limit = 3) {
  return db
    .selectFrom("advisor")
    .innerJoin("member", "member.id", "advisor.member_id")
    .select((eb) => [
      "advisor.member_id as author_id",
      "member.name as author_name",
      "member.handle as author_handle",
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
