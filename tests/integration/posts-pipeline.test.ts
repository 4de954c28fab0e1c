import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { createPost, deleteOwnPost, editOwnPost, setPostHidden } from "~/.server/domain/posts/pipeline";
import { POST_KINDS, type PostKind } from "~/.server/domain/posts/post-kinds";
import { recordXpEvent } from "~/.server/domain/progression/progression-service";
import { ledgerXp } from "./ledger-xp";
import { discussionWithReplies } from "~/.server/domain/forum/forum-read-model";
import { questionWithAnswers } from "~/.server/domain/council/council-read-model";
import { member as newMember } from "../factories";
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
  const result = await createPost(site.services, viewer, { kind, parentId, values: { ...values, ...(kind === "discussion" || kind === "question" ? { last_activity_at: at } : {}) }, submissionKey: key() });
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
  if (kind === "discussion") return Number((await db.selectFrom("topic").select("discussion_count").where("id", "=", topicId).executeTakeFirstOrThrow()).discussion_count);
  if (kind === "reply") return Number((await db.selectFrom("discussion").select("reply_count").where("id", "=", posts.discussion!).executeTakeFirstOrThrow()).reply_count);
  if (kind === "answer") return Number((await db.selectFrom("question").select("answer_count").where("id", "=", posts.question!).executeTakeFirstOrThrow()).answer_count);
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
    .values({ id: topicId, section: "monastery", title: "Stillness", description: "x", created_by: author.id, created_at: at, last_activity_at: at, member_count: 1 })
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
    expect(again).toEqual({ ok: true, value: { id: first.ok && first.value.id, created: false } });
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
    const row = await site.services.db.selectFrom(POST_KINDS[kind].table as "reply").select(["body", "edited_at"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.body).toBe("Edited.");
    expect(row.edited_at).not.toBeNull();
  });

  it.each(KINDS_WITH_FORMS)("a %s's body is rendered once when written and again when edited; pages read the stored HTML", async (kind) => {
    const poster = await member("member", 60);
    const parentId = kind === "reply" ? posts.discussion! : kind === "answer" ? posts.question! : kind === "discussion" ? topicId : null;
    const at = new Date().toISOString();
    const own = kind === "discussion" ? { title: "Rendered", slug: "rendered", excerpt: "x", last_activity_at: at } : kind === "question" ? { title: "Rendered?", excerpt: "x", last_activity_at: at } : {};
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
