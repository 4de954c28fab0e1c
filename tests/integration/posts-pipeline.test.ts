import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { sql } from "kysely";
import type { Db } from "~/.server/db/connect";
import { tag } from "~/.server/cache/page-tags";
import { createPost, deleteOwnPost, editOwnPost, setPostHidden } from "~/.server/domain/posts/pipeline";
import { POST_KIND_NAMES, POST_KINDS, specOf, type PostKind, type PostKindSpec } from "~/.server/domain/posts/post-kinds";
import { XP } from "~/lib/xp";
import { recordXpEvent } from "~/.server/domain/progression/progression-service";
import { ledgerXp } from "./ledger-xp";
import { discussionWithReplies } from "~/.server/domain/forum/forum-read-model";
import { questionWithAnswers } from "~/.server/domain/council/council-read-model";
import { creation, member as newMember } from "../factories";
import { createTestSite, ENGINE, type TestSite } from "./test-services";

/**
 * The posting pipeline itself (ADR 0017), for every kind that has a form today: the same steps,
 * the same rules, whatever the kind.
 */

let site: TestSite;

const member = (role: Viewer["role"] = "member", xp = 0) => newMember(site.services.db, { role, xp });

const key = () => crypto.randomUUID();
const xpOf = async (viewer: Viewer) => ledgerXp(site.services.db, viewer.id);

async function posted(viewer: Viewer, kind: PostKind, parentId: string | number | null, values: Record<string, unknown>) {
  const at = new Date().toISOString();
  const result = await createPost(site.services, viewer, {
    kind,
    parentId,
    values: { ...values, ...(kind === "discussion" || kind === "question" ? { last_activity_at: at } : {}) },
    submissionKey: key(),
  });
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.value.id;
}

/** One post of each kind with a form: a discussion in a topic, a reply to it, a question and an answer to it. */
const posts: Partial<Record<PostKind, number>> = {};
let topicId: string;
let author: Viewer;
let moderator: Viewer;

/** The stored count each kind adds to, read from its parent. */
async function parentCount(kind: PostKind): Promise<number | null> {
  const { db } = site.services;
  if (kind === "discussion")
    return Number((await db.selectFrom("topic").select("discussion_count").where("id", "=", topicId).executeTakeFirstOrThrow()).discussion_count);
  if (kind === "reply")
    return Number((await db.selectFrom("discussion").select("reply_count").where("id", "=", posts.discussion!).executeTakeFirstOrThrow()).reply_count);
  if (kind === "answer")
    return Number((await db.selectFrom("question").select("answer_count").where("id", "=", posts.question!).executeTakeFirstOrThrow()).answer_count);
  return null;
}

beforeAll(async () => {
  site = await createTestSite();
  author = await member("member", 60); // an acolyte: no daily limit in the way
  moderator = await member("moderator");
  topicId = "stillness";
  const at = new Date().toISOString();
  await site.services.db
    .insertInto("topic")
    .values({
      id: topicId,
      section: "monastery",
      title: "Stillness",
      description: "x",
      created_by: author.id,
      created_at: at,
      last_activity_at: at,
      member_count: 1,
    })
    .execute();
  posts.discussion = await posted(author, "discussion", topicId, { title: "Sitting", slug: "sitting", body: "Sit.", excerpt: "Sit." });
  posts.reply = await posted(author, "reply", posts.discussion, { body: "Yes." });
  posts.question = await posted(author, "question", null, { title: "How to sit?", body: "How?", excerpt: "How?" });
  posts.answer = await posted(await member(), "answer", posts.question, { body: "Still." });
});
afterAll(async () => {
  await site.destroy();
});

const KINDS_WITH_FORMS = ["discussion", "reply", "question", "answer"] as const;

describe(`the posting pipeline on ${ENGINE}`, () => {
  it.each(KINDS_WITH_FORMS)("a new %s moves its parent's count and pays its XP once", async (kind) => {
    const poster = await member("member", 60);
    const parentId = kind === "reply" ? posts.discussion! : kind === "answer" ? posts.question! : kind === "discussion" ? topicId : null;
    const values =
      kind === "discussion"
        ? { title: "T", slug: "t", body: "B", excerpt: "B" }
        : kind === "question"
          ? { title: "T?", body: "B", excerpt: "B" }
          : { body: "B" };
    const before = await parentCount(kind);
    const submissionKey = key();
    const at = new Date().toISOString();
    const withActivity = kind === "discussion" || kind === "question" ? { ...values, last_activity_at: at } : values;
    const first = await createPost(site.services, poster, { kind, parentId, values: withActivity, submissionKey });
    const again = await createPost(site.services, poster, { kind, parentId, values: withActivity, submissionKey });
    expect(first.ok && first.value.created).toBe(true);
    expect(again).toEqual({ ok: true, value: { id: first.ok && first.value.id, created: false, pending: false } });
    if (before !== null) expect(await parentCount(kind)).toBe(before + 1);
    expect(await xpOf(poster)).toBe(60 + (POST_KINDS[kind].xp ? { discussion: 5, reply: 2, question: 2, answer: 5 }[kind] : 0));
  });

  it.each(KINDS_WITH_FORMS)("hiding and restoring a %s logs one row per action, moves the count, and a repeat does nothing", async (kind) => {
    const id = posts[kind]!;
    const before = await parentCount(kind);
    expect(await setPostHidden(site.services, author, kind, id, true)).toEqual({ ok: false, status: 403, errors: { form: "Only moderators can do that." } });
    expect(await setPostHidden(site.services, moderator, kind, id, true)).toEqual({ ok: true, value: { id } });
    if (before !== null) expect(await parentCount(kind)).toBe(before - 1);
    await setPostHidden(site.services, moderator, kind, id, true); // hidden already: nothing to record
    await setPostHidden(site.services, moderator, kind, id, false);
    if (before !== null) expect(await parentCount(kind)).toBe(before);
    const log = await site.services.db
      .selectFrom("moderation_action")
      .select(["action", "actor_id"])
      .where("subject_type", "=", kind)
      .where("subject_id", "=", id)
      .orderBy("id")
      .execute();
    expect(log).toEqual([
      { action: "hide", actor_id: moderator.id },
      { action: "restore", actor_id: moderator.id },
    ]);
    expect(await setPostHidden(site.services, moderator, kind, 987654, true)).toEqual({ ok: false, status: 404, errors: { form: POST_KINDS[kind].missing } });
  });

  it.each(KINDS_WITH_FORMS)("only the author edits a %s, and it is marked edited", async (kind) => {
    const id = posts[kind]!;
    const owner = kind === "answer" ? undefined : author;
    const someone = await member();
    expect(await editOwnPost(site.services, someone, kind, id, { values: () => ({ body: "Mine now" }) })).toEqual({
      ok: false,
      status: 403,
      errors: { form: "You can only change your own posts." },
    });
    if (!owner) return;
    const edited = await editOwnPost(site.services, owner, kind, id, { values: () => ({ body: "Edited." }) });
    expect(edited.ok).toBe(true);
    const row = await site.services.db
      .selectFrom(POST_KINDS[kind].table as "reply")
      .select(["body", "edited_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.body).toBe("Edited.");
    expect(row.edited_at).not.toBeNull();
  });

  it.each(KINDS_WITH_FORMS)("a %s's body is rendered once when written and again when edited; pages read the stored HTML", async (kind) => {
    const poster = await member("member", 60);
    const parentId = kind === "reply" ? posts.discussion! : kind === "answer" ? posts.question! : kind === "discussion" ? topicId : null;
    const at = new Date().toISOString();
    const own =
      kind === "discussion"
        ? { title: "Rendered", slug: "rendered", excerpt: "x", last_activity_at: at }
        : kind === "question"
          ? { title: "Rendered?", excerpt: "x", last_activity_at: at }
          : {};
    const id = await posted(poster, kind, parentId, { ...own, body: "Some **bold** [link](https://example.org)" });
    const table = POST_KINDS[kind].table as "reply";
    const stored = async () => (await site.services.db.selectFrom(table).select("body_html").where("id", "=", id).executeTakeFirstOrThrow()).body_html;
    expect(await stored()).toBe('<p>Some <strong>bold</strong> <a href="https://example.org" rel="nofollow ugc noopener noreferrer">link</a></p>\n');
    expect((await editOwnPost(site.services, poster, kind, id, { values: () => ({ body: "Now *edited*" }) })).ok).toBe(true);
    expect(await stored()).toBe("<p>Now <em>edited</em></p>\n");

    // What the page shows is the stored HTML, not a render of the body on each view.
    await site.services.db.updateTable(table).set({ body_html: "<p>from the column</p>" }).where("id", "=", id).execute();
    const html =
      kind === "discussion" || kind === "reply"
        ? await discussionWithReplies(site.services.db, null, kind === "reply" ? posts.discussion! : id, { kind: "last" }).then((shown) =>
            kind === "reply" ? shown?.replies.find((r) => r.id === id)?.html : shown?.discussion.html,
          )
        : await questionWithAnswers(site.services.db, kind === "answer" ? posts.question! : id).then((shown) =>
            kind === "answer" ? shown?.answers.find((a) => a.id === id)?.html : shown?.question.html,
          );
    expect(html).toBe("<p>from the column</p>");
  });

  it("deleting an answer takes back what it earned by id and by vote, moves the count once, and a second delete is a 404", async () => {
    const answerer = await member();
    const id = await posted(answerer, "answer", posts.question!, { body: "Deep breaths." });
    const at = new Date().toISOString();
    // Through the progression service, which keeps the member row's total with the ledger (ADR 0027, 0053).
    await recordXpEvent(site.services.db, { member_id: answerer.id, kind: "answer.accepted", subject_id: String(id), points: 15, created_at: at });
    await recordXpEvent(site.services.db, { member_id: answerer.id, kind: "answer.helpful", subject_id: `${id}:someone`, points: 2, created_at: at });
    expect(await xpOf(answerer)).toBe(5 + 15 + 2);
    const before = await parentCount("answer");
    expect((await deleteOwnPost(site.services, answerer, "answer", id)).ok).toBe(true);
    expect(await xpOf(answerer)).toBe(0);
    expect(await parentCount("answer")).toBe(before! - 1);
    expect(await deleteOwnPost(site.services, answerer, "answer", id)).toEqual({ ok: false, status: 404, errors: { form: "Answer not found" } });
    expect(await parentCount("answer")).toBe(before! - 1);
  });

  it("deleting a hidden reply leaves the counts alone: hiding took it out already", async () => {
    const replier = await member();
    const id = await posted(replier, "reply", posts.discussion!, { body: "Soon hidden." });
    const before = await parentCount("reply");
    await setPostHidden(site.services, moderator, "reply", id, true);
    expect(await parentCount("reply")).toBe(before! - 1);
    // Its author cannot see it any more, so cannot delete it; a moderator who wrote one can.
    expect(await deleteOwnPost(site.services, replier, "reply", id)).toEqual({ ok: false, status: 404, errors: { form: "Post not found" } });
    const own = await posted(moderator, "reply", posts.discussion!, { body: "Mine, hidden." });
    await setPostHidden(site.services, moderator, "reply", own, true);
    const hiddenCount = await parentCount("reply");
    expect((await deleteOwnPost(site.services, moderator, "reply", own)).ok).toBe(true);
    expect(await parentCount("reply")).toBe(hiddenCount);
  });
});

// ---------------------------------------------------------------- the table of kinds (ADR 0053)

/**
 * Every field of PostKindSpec. A Record over its keys, so a field added to the spec does not compile
 * here until it is listed, and then every kind is checked for it.
 */
const SPEC_FIELDS: Record<keyof PostKindSpec, true> = {
  table: true,
  parent: true,
  missing: true,
  excerpt: true,
  countedIn: true,
  alsoCounts: true,
  pageTags: true,
  xp: true,
  earned: true,
  daily: true,
  editsLimited: true,
  media: true,
  alsoDeletes: true,
  titled: true,
  notices: true,
  live: true,
};

/** The columns the pipeline's steps read and write on every post table. */
const POST_COLUMNS = ["id", "author_id", "created_at", "edited_at", "deleted_at", "hidden_at", "submission_key"];

/** A page tag as page-tags.ts writes them: a name, or a name and an id that is one (not NaN, undefined or null). */
// A kind, then one or two parts: `discussion:7`, `related:section:monastery` (a related list names its area by its tag).
const WELL_FORMED_TAG = /^[a-z]+((?::(?!NaN$|undefined$|null$)[\w-]+){1,2})?$/;

/**
 * What is missing or wrong in one kind's entry: a field left out, a table or column the database
 * does not have, an XP kind with no amount, page tags that name nothing (for a real post of it).
 */
async function specProblems(db: Db, name: string, spec: Partial<PostKindSpec>, post: { id: number; parentId: string | number | null }): Promise<string[]> {
  const problems: string[] = [];
  for (const field of Object.keys(SPEC_FIELDS) as (keyof PostKindSpec)[]) if (spec[field] === undefined) problems.push(`${name}: no ${field}`);
  const tables = new Map<string, Set<string>>();
  if (ENGINE === "postgres") {
    // This run's schema only (each test run has its own, ADR 0018), read from it alone: Kysely's
    // introspection lists every schema's tables, and fails when another file drops its schema meanwhile.
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns where table_schema = current_schema()`.execute(db);
    for (const row of rows) tables.set(row.table_name, (tables.get(row.table_name) ?? new Set()).add(row.column_name));
  } else {
    for (const t of await db.introspection.getTables()) tables.set(t.name, new Set(t.columns.map((c) => c.name)));
  }
  const needColumns = (table: string, columns: readonly string[]) => {
    const has = tables.get(table);
    if (!has) return problems.push(`${name}: no table ${table}`);
    for (const column of columns) if (!has.has(column)) problems.push(`${name}: ${table} has no ${column}`);
  };
  if (spec.table) {
    needColumns(spec.table, [...POST_COLUMNS, ...(spec.parent ? [spec.parent] : []), ...(spec.excerpt ? ["excerpt"] : []), ...(spec.media ?? [])]);
  }
  for (const counted of spec.countedIn ?? []) {
    needColumns(counted.table, [counted.column, ...(counted.activity ? ["last_activity_at"] : [])]);
    if (counted.via) needColumns(counted.via.table, [counted.via.column]);
  }
  for (const xp of [spec.xp, ...(spec.earned?.byId ?? []), ...(spec.earned?.byVote ?? [])])
    if (xp && !(xp in XP)) problems.push(`${name}: no XP amount for ${xp}`);
  if (spec.countedIn?.length && !spec.parent) problems.push(`${name}: counted in a parent but has none`);
  if (spec.pageTags) {
    const tags = await spec.pageTags(db, post);
    if (tags.length === 0) problems.push(`${name}: names no page`);
    for (const t of tags) if (!WELL_FORMED_TAG.test(t)) problems.push(`${name}: page tag ${t}`);
  }
  if (spec.notices) {
    const place = await spec.notices(db, post);
    if (!place) problems.push(`${name}: no notice place for a real post`);
    else {
      if (!place.subject.endsWith(`:${post.id}`)) problems.push(`${name}: notice subject ${place.subject}`);
      if (!place.url.startsWith("/") || place.title === "") problems.push(`${name}: notice goes nowhere`);
    }
  }
  return problems;
}

/** A step of the pipeline that asks which kind it holds, instead of reading the kind's entry. */
const KIND_QUESTION = /\bkind\s*[!=]==\s*["']|switch\s*\(\s*kind\b/g;
const kindQuestions = (source: string) => source.match(KIND_QUESTION) ?? [];

describe(`the table of kinds on ${ENGINE}`, () => {
  /** One real post of every kind, with its parent. */
  async function onePostOfEach(): Promise<Record<PostKind, { id: number; parentId: string | number | null }>> {
    const made = await creation(site.services.db, { author });
    const comment = await posted(author, "comment", made.id, { body: "Lovely." });
    return {
      discussion: { id: posts.discussion!, parentId: topicId },
      reply: { id: posts.reply!, parentId: posts.discussion! },
      question: { id: posts.question!, parentId: null },
      answer: { id: posts.answer!, parentId: posts.question! },
      creation: { id: made.id, parentId: null },
      comment: { id: comment, parentId: made.id },
    };
  }

  it("describes every kind whole: every field, tables and columns that exist, XP that has an amount, page tags for a real post", async () => {
    const db = site.services.db;
    const real = await onePostOfEach();
    for (const kind of POST_KIND_NAMES) expect(await specProblems(db, kind, specOf(kind), real[kind])).toEqual([]);
    // The tags name the pages a reader sees the post on: a reply's discussion, topic and section.
    expect(await specOf("reply").pageTags(db, real.reply)).toEqual([tag.discussion(posts.discussion!), tag.topic(topicId), tag.section("monastery")]);
    expect(await specOf("comment").pageTags(db, real.comment)).toEqual([tag.creation(real.creation.id), tag.forge]);

    // A broken entry, built here: a field left out, a count in a column that does not exist, an
    // excerpt the table cannot hold, page tags naming nothing or a parent it never read.
    const { xp: _xp, ...noXp } = POST_KINDS.reply;
    expect(await specProblems(db, "no-xp", noXp, real.reply)).toEqual(["no-xp: no xp"]);
    const broken: PostKindSpec = {
      ...POST_KINDS.reply,
      excerpt: true,
      countedIn: [{ table: "topic", column: "answer_count", activity: true }],
      pageTags: async () => [],
    };
    expect(await specProblems(db, "broken", broken, real.reply)).toEqual([
      "broken: reply has no excerpt",
      "broken: topic has no answer_count",
      "broken: names no page",
    ]);
    const wrongParent: PostKindSpec = {
      ...POST_KINDS.answer,
      pageTags: async (_db, post) => [tag.question(Number((post as { questionId?: number }).questionId)), tag.council],
    };
    expect(await specProblems(db, "wrong-parent", wrongParent, real.answer)).toEqual(["wrong-parent: page tag question:NaN"]);
  });

  it("leaves every per-kind rule to the table: no step of the pipeline asks which kind it holds", () => {
    const dir = path.join(import.meta.dirname, "../../app/.server/domain/posts");
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".ts") && f !== "post-kinds.ts")) {
      expect({ file, questions: kindQuestions(fs.readFileSync(path.join(dir, file), "utf8")) }).toEqual({ file, questions: [] });
    }
    // The check itself, on the switch this table replaced (ADR 0053).
    const before = 'switch (kind) {\n  case "discussion":\n  ...\n  if (kind === "reply") await moveReplyHour(trx);';
    expect(kindQuestions(before)).toEqual(["switch (kind", 'kind === "']);
  });
});
