import { randomUUID } from "node:crypto";
import type { AppServices, Viewer } from "~/.server/context";
import { answerQuestion, askQuestion } from "~/.server/domain/council/council-service";
import { rankById } from "~/lib/ranks";
import { member } from "./member";
import { succeeded } from "./succeeded";

export interface QuestionOverrides {
  /** By default a new Acolyte, so the initiate's daily limit never decides a test that is not about it. */
  asker?: Viewer;
  title?: string;
  body?: string;
  virtues?: string[];
  submissionKey?: string;
  at?: Date;
}

/** A question, asked through the Council service (virtues, XP and excerpt as the site makes them). */
export async function question(services: AppServices, overrides: QuestionOverrides = {}) {
  const asker = overrides.asker ?? (await member(services.db, { xp: rankById("acolyte").minXp }));
  const asked = await askQuestion(
    services,
    asker,
    {
      title: overrides.title ?? "How do I sit still longer?",
      body: overrides.body ?? "Body",
      virtues: overrides.virtues ?? ["wisdom"],
      submissionKey: overrides.submissionKey ?? randomUUID(),
    },
    overrides.at,
  );
  return { id: succeeded("asking a question", asked).id, asker };
}

export interface AnswerOverrides {
  /** By default a new member with no XP (answering needs no rank). */
  author?: Viewer;
  body?: string;
  submissionKey?: string;
  at?: Date;
}

/** An answer to a question, through the Council service (counts and XP as the site makes them). */
export async function answer(services: AppServices, questionId: number, overrides: AnswerOverrides = {}) {
  const author = overrides.author ?? (await member(services.db));
  const answered = await answerQuestion(
    services,
    author,
    questionId,
    { body: overrides.body ?? "An answer", submissionKey: overrides.submissionKey ?? randomUUID() },
    overrides.at,
  );
  return { id: succeeded("answering a question", answered).id, author };
}
