import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { createChallenge } from "~/.server/domain/challenges/challenge-service";
import { answerQuestion, askQuestion } from "~/.server/domain/council/council-service";
import { createEvent, type EventInput } from "~/.server/domain/events/event-service";
import { findEventIdBySubmission, insertEvent } from "~/.server/domain/events/event-repository";
import { shareCreation } from "~/.server/domain/forge/creation-service";
import { commentOnCreation } from "~/.server/domain/forge/forge-engagement";
import { postReply, startDiscussion } from "~/.server/domain/forum/forum-service";
import type { Outcome } from "~/.server/domain/outcome";
import { formKey } from "~/.server/forms";
import { rankById } from "~/lib/ranks";
import type { Virtue } from "~/lib/virtues";
import { advisor, creation, discussion, member, question, topic } from "../factories";
import { png } from "../factories/media";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

/**
 * One form key, bound to what was submitted (issue 27 item 2, ADR 0052), for every service that
 * takes one: a kept page hands two tabs the same key, so the same key with the same submission must
 * be one row (a double submit) and with another submission a row of its own, never the member's
 * second text silently taken for the first.
 */

const site = testSiteForFile();
const db = () => site.services.db;
const HOUR = 60 * 60 * 1000;
const acolyte = () => member(db(), { xp: rankById("acolyte").minXp });

/** A form that writes, as its service takes it: `send(who, key, submission)`. */
interface KeyedForm<S> {
  table: "discussion" | "reply" | "question" | "answer" | "creation" | "creation_comment" | "event" | "challenge";
  author: "author_id" | "host_id" | "created_by";
  /** A member the service lets write this. */
  writer: () => Promise<Viewer>;
  send: (who: Viewer, key: string, submission: S) => Promise<Outcome<{ id: number }>>;
  first: S;
  /** Other submissions of the same form, each differing from the first in one thing it binds. */
  others: Record<string, S>;
}

const idOf = (sent: Outcome<{ id: number }>) => {
  if (!sent.ok) throw new Error(`refused: ${JSON.stringify(sent)}`);
  return sent.value.id;
};

/**
 * The rule itself, for one form: one key sent again with the same submission (one after the other,
 * and two at once) is the first row; sent with each other submission, a new row. Throws otherwise.
 */
async function expectBoundToSubmission<S>(form: KeyedForm<S>) {
  const who = await form.writer();
  const key = formKey();
  const rows = () => db().selectFrom(form.table).select(["id", "submission_key"]).where(form.author, "=", who.id).orderBy("id").execute();

  const first = idOf(await form.send(who, key, form.first));
  expect(idOf(await form.send(who, key, form.first)), "the same form sent again").toBe(first);
  const twice = await Promise.all([form.send(who, key, form.first), form.send(who, key, form.first)]);
  expect(twice.map(idOf), "the same form sent twice at once").toEqual([first, first]);
  expect(await rows()).toHaveLength(1);

  const ids = [first];
  for (const [what, other] of Object.entries(form.others)) {
    const id = idOf(await form.send(who, key, other));
    expect(ids, `same key, ${what}: a write of its own`).not.toContain(id);
    ids.push(id);
    // And that one, sent again, is still one row.
    expect(idOf(await form.send(who, key, other)), `same key, ${what}, sent again`).toBe(id);
  }
  const stored = await rows();
  expect(stored.map((r) => r.id)).toEqual(ids);
  for (const row of stored) expect(row.submission_key).toMatch(new RegExp(`^${key}\\.[A-Za-z0-9_-]{22}$`));
}

// ---------------------------------------------------------------- one form of each kind

type PostText = { title?: string; body: string };

const discussionForm: KeyedForm<PostText> = {
  table: "discussion",
  author: "author_id",
  writer: acolyte,
  send: async (who, key, s) => {
    const where = await topicOnce();
    return startDiscussion(site.services, who, where.section, where.id, { title: s.title!, body: s.body, submissionKey: key });
  },
  first: { title: "Sitting through the itch", body: "How do you stay with it?" },
  others: {
    "another body": { title: "Sitting through the itch", body: "Second tab: what about the knees?" },
    "another title": { title: "Sitting through the ache", body: "How do you stay with it?" },
  },
};

const replyForm: KeyedForm<PostText> = {
  table: "reply",
  author: "author_id",
  writer: acolyte,
  send: async (who, key, s) => postReply(site.services, who, (await discussionOnce()).id, { body: s.body, submissionKey: key }),
  first: { body: "Breathe into it." },
  others: { "another body": { body: "Or count to ten first." } },
};

type QuestionForm = { title: string; body: string; virtues: string[] };
const questionForm: KeyedForm<QuestionForm> = {
  table: "question",
  author: "author_id",
  writer: acolyte,
  send: (who, key, s) => askQuestion(site.services, who, { ...s, submissionKey: key }),
  first: { title: "How do I keep a promise to myself?", body: "Mornings slip.", virtues: ["discipline"] },
  others: {
    "another body": { title: "How do I keep a promise to myself?", body: "Evenings slip too.", virtues: ["discipline"] },
    "other virtues": { title: "How do I keep a promise to myself?", body: "Mornings slip.", virtues: ["honor"] },
  },
};

const answerForm: KeyedForm<PostText> = {
  table: "answer",
  author: "author_id",
  writer: () => member(db()),
  send: async (who, key, s) => answerQuestion(site.services, who, (await questionOnce()).id, { body: s.body, submissionKey: key }),
  first: { body: "Write it down the night before." },
  others: { "another body": { body: "Tell a friend." } },
};

type Share = { description: string; image?: Buffer };
const shareText = (s: Share) => ({ title: "Dawn, twice", description: s.description, body: "Light on the water." });
const creationForm: KeyedForm<Share> = {
  table: "creation",
  author: "author_id",
  writer: acolyte,
  send: (who, key, s) =>
    s.image
      ? shareCreation(site.services, who, { ...shareText(s), type: "art", submissionKey: key }, { image: s.image })
      : shareCreation(site.services, who, { ...shareText(s), type: "writing", submissionKey: key }, {}),
  first: { description: "A short poem." },
  others: { "another description": { description: "A shorter poem." } },
};

const commentForm: KeyedForm<PostText> = {
  table: "creation_comment",
  author: "author_id",
  writer: acolyte,
  send: async (who, key, s) => commentOnCreation(site.services, who, (await creationOnce()).id, { body: s.body, submissionKey: key }),
  first: { body: "Lovely light." },
  others: { "another body": { body: "Which lake is it?" } },
};

const eventStart = new Date(Date.now() + 72 * HOUR);
const eventOf = (over: Partial<EventInput> = {}): EventInput => ({
  title: "Trail run at dawn",
  description: "Ten kilometres at a talking pace.",
  path: "warrior",
  startsAt: eventStart,
  endsAt: new Date(eventStart.getTime() + 2 * HOUR),
  timeZone: "America/New_York",
  onlineUrl: null,
  place: "Prospect Park boathouse",
  capacity: 12,
  ...over,
});
const eventForm: KeyedForm<EventInput> = {
  table: "event",
  author: "host_id",
  writer: () => advisor(site.services),
  send: (who, key, s) => createEvent(site.services, who, { ...s, submissionKey: key }),
  first: eventOf(),
  others: {
    "another title": eventOf({ title: "Trail run at dusk" }),
    "another start": eventOf({ startsAt: new Date(eventStart.getTime() + 24 * HOUR), endsAt: new Date(eventStart.getTime() + 26 * HOUR) }),
    "another capacity": eventOf({ capacity: 13 }),
  },
};

type ChallengeForm = { title: string; virtues: Virtue[]; lengthDays: number };
const challengeForm: KeyedForm<ChallengeForm> = {
  table: "challenge",
  author: "created_by",
  writer: () => member(db(), { role: "admin" }),
  send: (who, key, s) =>
    createChallenge(site.services, who, {
      ...s,
      description: "Sit in silence for ten minutes each morning.",
      path: "monk",
      checkInsRequired: 5,
      submissionKey: key,
    }),
  first: { title: "Thirty quiet mornings", virtues: ["wisdom"], lengthDays: 30 },
  others: {
    "another title": { title: "Thirty quiet evenings", virtues: ["wisdom"], lengthDays: 30 },
    "other virtues": { title: "Thirty quiet mornings", virtues: ["discipline"], lengthDays: 30 },
    "another length": { title: "Thirty quiet mornings", virtues: ["wisdom"], lengthDays: 31 },
  },
};

// The parents the forms write under, made once.
let topicMade: ReturnType<typeof topic> | undefined;
const topicOnce = () => (topicMade ??= topic(site.services));
let discussionMade: ReturnType<typeof discussion> | undefined;
const discussionOnce = () => (discussionMade ??= discussion(site.services));
let questionMade: ReturnType<typeof question> | undefined;
const questionOnce = () => (questionMade ??= question(site.services));
let creationMade: ReturnType<typeof creation> | undefined;
const creationOnce = () => (creationMade ??= creation(db()));

/** Each form with its table, its submission type left inside. */
const keyed = <S>(form: KeyedForm<S>) => ({ table: form.table as string, check: () => expectBoundToSubmission(form) });
const FORMS = {
  discussion: keyed(discussionForm),
  reply: keyed(replyForm),
  question: keyed(questionForm),
  answer: keyed(answerForm),
  creation: keyed(creationForm),
  comment: keyed(commentForm),
  event: keyed(eventForm),
  challenge: keyed(challengeForm),
};

/** The tables that store a submission key, read from the migrated database itself. */
async function keyedTables(): Promise<string[]> {
  if (ENGINE === "postgres") {
    // This run's schema alone: Kysely's introspection lists every schema's tables, and fails when
    // another test file drops its schema meanwhile.
    const { rows } = await sql<{ table_name: string }>`
      select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'submission_key'`.execute(db());
    return rows.map((r) => r.table_name).sort();
  }
  const tables = await db().introspection.getTables();
  return tables
    .filter((t) => t.columns.some((c) => c.name === "submission_key"))
    .map((t) => t.name)
    .sort();
}

const uncovered = (tables: string[], forms: { table: string }[]) => tables.filter((table) => !forms.some((f) => f.table === table));

describe(`one form key, bound to its submission, on ${ENGINE}`, () => {
  it.each(Object.keys(FORMS) as (keyof typeof FORMS)[])(
    "%s: the same key and submission is one row; the same key with another submission is another row",
    async (kind) => {
      await FORMS[kind].check();
    },
  );

  it("creation: the same key and words with another image is another creation", async () => {
    const [sunrise, sunset] = await Promise.all([png(40, 30, "#f0a030"), png(40, 30, "#3050a0")]);
    await expectBoundToSubmission({
      ...creationForm,
      first: { description: "Oil on board.", image: sunrise },
      others: { "another image": { description: "Oil on board.", image: sunset } },
    });
  });

  it("fails a service that takes a repeated key as a double submit whatever was sent (the form key unbound)", async () => {
    // createEvent as it was before ADR 0052: the form's key stored as it came.
    const unbound: KeyedForm<EventInput> = {
      ...eventForm,
      send: async (who, key, s) => {
        const at = new Date().toISOString();
        const { startsAt, endsAt, timeZone, onlineUrl, ...text } = s;
        const row = {
          ...text,
          description_html: s.description,
          starts_at: startsAt.toISOString(),
          ends_at: endsAt.toISOString(),
          time_zone: timeZone,
          online_url: onlineUrl,
        };
        const id =
          (await insertEvent(db(), { ...row, host_id: who.id, created_at: at, updated_at: at, cancelled_at: null, submission_key: key })) ??
          (await findEventIdBySubmission(db(), who.id, key));
        return { ok: true, value: { id: id! } };
      },
    };
    await expect(expectBoundToSubmission(unbound)).rejects.toThrow(/same key, another title: a write of its own/);
  });

  it("covers every table that stores a submission key", async () => {
    const tables = await keyedTables();
    expect(tables).toHaveLength(8);
    expect(uncovered(tables, Object.values(FORMS))).toEqual([]);
    // A new kind of form with a key of its own and no case here is named.
    expect(uncovered([...tables, "reaction"], Object.values(FORMS))).toEqual(["reaction"]);
  });
});
