import type { Db } from "../../db/connect";
import { toIso } from "~/lib/dates";
import { excerptOf } from "~/lib/text";
import { renderMarkdown } from "../../markdown";
import { withAuthors } from "../progression/authors";
import { ranksOf } from "../progression/progression-service";
import {
  advisorVirtues,
  featuredAdvisors,
  findQuestion,
  listAnswers,
  recentQuestions,
  virtuesOf,
  type QuestionFilter,
} from "./council-repository";

export async function questionSummaries(db: Db, limit = 5, filter: QuestionFilter = {}) {
  const rows = await withAuthors(db, await recentQuestions(db, limit, filter));
  const virtues = await virtuesOf(
    db,
    rows.map((q) => q.id),
  );
  return rows.map((q) => ({
    id: q.id,
    title: q.title,
    excerpt: excerptOf(q.body),
    virtues: virtues.get(q.id) ?? [],
    answers: Number(q.answer_count),
    views: Number(q.view_count),
    author: q.author,
  }));
}

export async function featuredAdvisorSummaries(db: Db, limit = 3) {
  const advisors = await featuredAdvisors(db, limit);
  const ids = advisors.map((a) => a.author_id);
  const [ranks, virtues] = await Promise.all([ranksOf(db, ids), advisorVirtues(db, ids)]);
  return advisors.map((a) => ({
    name: a.author_name,
    handle: a.author_handle,
    rank: ranks.get(a.author_id)!.id,
    path: a.path,
    specialty: a.specialty,
    virtues: virtues.get(a.author_id) ?? [],
    questionsAnswered: Number(a.questions_answered ?? 0),
  }));
}

export async function questionPage(db: Db, id: number) {
  const row = await findQuestion(db, id);
  if (!row) return null;
  const [question] = await withAuthors(db, [row]);
  const [virtues, answers] = await Promise.all([virtuesOf(db, [id]), listAnswers(db, id).then((a) => withAuthors(db, a))]);
  // Accepted first, then by helpful votes, then oldest (PRODUCT.md §2).
  answers.sort((a, b) => Number(b.id === row.accepted_answer_id) - Number(a.id === row.accepted_answer_id));
  return {
    question: {
      id: question.id,
      title: question.title,
      html: renderMarkdown(question.body),
      excerpt: excerptOf(question.body),
      virtues: virtues.get(id) ?? [],
      views: Number(question.view_count),
      answers: Number(question.answer_count),
      createdAt: toIso(question.created_at),
      edited: question.edited_at !== null,
      author: question.author,
    },
    answers: answers.map((a) => ({
      id: a.id,
      html: a.deleted_at ? null : renderMarkdown(a.body),
      helpful: Number(a.helpful_count),
      accepted: a.id === row.accepted_answer_id,
      createdAt: toIso(a.created_at),
      edited: a.edited_at !== null,
      author: a.author,
      advisor: a.advisor_path ? { path: a.advisor_path, specialty: a.advisor_specialty ?? "" } : null,
    })),
  };
}
