import { hiddenPostsView, postAsShown } from "../flags/under-review";
import { isModerator } from "../accounts/roles";
import { parseId } from "~/lib/params";
import { QUOTE_REMOVED, quoteMarkdown } from "~/lib/quotes";
import { hiddenBadgeText, reviewNoteText, UNDER_REVIEW_TITLE } from "~/lib/flags";
import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import { toIso } from "~/lib/dates";
import { storedRank, withAuthors } from "../progression/authors";
import { readsFrom, tag } from "../../cache/page-tags";
import {
  advisorVirtues,
  featuredAdvisors,
  findAnswerToQuote,
  findQuestion,
  listAdvisors,
  listAnswers,
  questionPageRows,
  recentQuestions,
  questionVirtues,
  votedAnswerIds,
  type QuestionFilter,
} from "./council-repository";
import { markQuestionRead, newSince } from "../notifications/read-markers";
import { encodeActivityCursor, type ActivityCursor, type PageRequest } from "../../pagination";

export async function questionSummaries(db: Db, limit = 5, filter: QuestionFilter = {}) {
  return summarise(db, await recentQuestions(db, limit, filter));
}

type QuestionRow = Awaited<ReturnType<typeof recentQuestions>>[number];

/** Question cards: authors with ranks and the virtues, each in one query for all the rows. */
async function summarise(db: Db, questionRows: QuestionRow[]) {
  // Any question or answer changes the lists (a new one, a count, the "unanswered" filter).
  readsFrom(tag.council);
  const rows = withAuthors(questionRows);
  const virtues = await questionVirtues(
    db,
    rows.map((q) => q.id),
  );
  return rows.map((q) => ({
    id: q.id,
    title: q.title,
    excerpt: q.excerpt,
    virtues: virtues.get(q.id) ?? [],
    answers: Number(q.answer_count),
    views: Number(q.view_count),
    author: q.author,
    createdAt: toIso(q.created_at),
  }));
}

export const QUESTIONS_PER_PAGE = 10;

/** Recent questions, newest first, one keyset page at a time (cursor on created_at and id). */
export async function questionFeed(
  db: Db,
  filter: QuestionFilter,
  request: PageRequest<ActivityCursor>,
  limit = QUESTIONS_PER_PAGE,
  viewer: Viewer | null = null,
) {
  const page = await questionPageRows(db, filter, request, limit);
  const listed = await summarise(db, page.rows);
  // Answers since the member last read each question (issue 28); null for one they never opened.
  const fresh = await newSince(
    db,
    viewer,
    "question",
    listed.map((q) => ({ id: q.id, count: q.answers })),
  );
  const summaries = listed.map((q) => ({ ...q, newAnswers: fresh.get(q.id) ?? null }));
  const cursorOf = (q: { id: number; createdAt: string }) => encodeActivityCursor({ at: q.createdAt, id: q.id });
  return {
    questions: summaries,
    newer: page.hasNewer && summaries.length ? `before=${cursorOf(summaries[0])}` : null,
    older: page.hasOlder && summaries.length ? `after=${cursorOf(summaries[summaries.length - 1])}` : null,
  };
}

export async function featuredAdvisorSummaries(db: Db, limit = 3) {
  const advisors = await featuredAdvisors(db, limit);
  const ids = advisors.map((a) => a.author_id);
  // Who is featured follows accepted answers and advisor grants (council); each one's name and rank, their member tag.
  readsFrom(tag.council, ...ids.map(tag.member));
  const virtues = await advisorVirtues(db, ids);
  return advisors.map((a) => ({
    name: a.author_name,
    handle: a.author_handle,
    rank: storedRank(a.author_rank),
    avatar: a.author_avatar,
    path: a.path,
    specialty: a.specialty,
    virtues: virtues.get(a.author_id) ?? [],
    questionsAnswered: Number(a.questions_answered ?? 0),
  }));
}

export async function questionWithAnswers(db: Db, id: number, viewer: Viewer | null = null) {
  // Hidden ones come too: which of them this viewer sees, and how, is hiddenPostsView's (issue 31).
  const found = await findQuestion(db, id, { includeHidden: true });
  const [row] = found ? await hiddenPostsView(db, viewer, "question", [found]) : [];
  if (!row) return null;
  readsFrom(tag.question(id));
  const [question] = withAuthors([row]);
  // A question the flags hid shows none of its words, its answers' neither.
  const [virtues, answers] = await Promise.all([
    questionVirtues(db, [id]),
    row.veiled ? [] : listAnswers(db, id, { includeHidden: true }).then(async (a) => withAuthors(await hiddenPostsView(db, viewer, "answer", a))),
  ]);
  const voted = viewer
    ? await votedAnswerIds(
        db,
        viewer.id,
        answers.map((a) => a.id),
      )
    : new Set<number>();
  // Accepted first, then by helpful votes, then oldest (PRODUCT.md §2).
  answers.sort((a, b) => Number(b.id === row.accepted_answer_id) - Number(a.id === row.accepted_answer_id));
  const mine = (authorId: string) => viewer?.id === authorId;
  // Every answer is on the page: none is new to the member any more (issue 28).
  if (viewer && !row.veiled) {
    const lastAnswerId = answers.reduce<number | null>((last, a) => (last === null || a.id > last ? a.id : last), null);
    await markQuestionRead(db, viewer, { id, answers: Number(row.answer_count), lastAnswerId });
  }
  return {
    question: {
      id: question.id,
      title: row.veiled ? UNDER_REVIEW_TITLE : question.title,
      html: row.veiled ? null : question.body_html,
      body: mine(row.author_id) ? question.body : null,
      excerpt: row.veiled ? "" : question.excerpt,
      hidden: row.hidden_at !== null,
      review: row.review,
      veiled: row.veiled,
      note: mine(row.author_id) ? reviewNoteText(row.review) : null,
      badge: hiddenBadgeText({ hidden: row.hidden_at !== null, review: row.review, veiled: row.veiled }),
      virtues: virtues.get(id) ?? [],
      views: Number(question.view_count),
      answers: Number(question.answer_count),
      createdAt: toIso(question.created_at),
      edited: question.edited_at !== null && !row.veiled,
      author: question.author,
      authorId: row.author_id,
      mine: mine(row.author_id),
    },
    answers: answers.map((a) => ({
      ...postAsShown(a, viewer),
      helpful: Number(a.helpful_count),
      accepted: a.id === row.accepted_answer_id,
      voted: voted.has(a.id),
      advisor: a.advisor_path ? { path: a.advisor_path, specialty: a.advisor_specialty ?? "" } : null,
    })),
  };
}

/** The admin's list of advisors. */
export async function advisorList(db: Db) {
  const advisors = await listAdvisors(db);
  return advisors.map((a) => ({ ...a, granted_at: String(a.granted_at) }));
}

/**
 * What the answer form starts with when a member follows an answer's Quote link (issue 32): its
 * text quoted, with its author linked back to it; "[quoted post removed]" for one hidden from the
 * viewer or deleted; nothing for an answer to another question or none. A GET's parameter: a bad one
 * changes nothing.
 */
export async function answerDraft(db: Db, viewer: Viewer | null, questionId: number, params: URLSearchParams) {
  const quote = parseId(params.get("quote"));
  if (!viewer || !quote) return "";
  const row = await findAnswerToQuote(db, quote);
  if (!row || Number(row.question_id) !== questionId) return "";
  if (row.deleted_at !== null || (row.hidden_at !== null && !isModerator(viewer))) return QUOTE_REMOVED;
  readsFrom(tag.member(row.author_id));
  return quoteMarkdown(row.body, row.author_name, `/council/${questionId}#answer-${row.id}`);
}
