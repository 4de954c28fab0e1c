import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discussionPage, replyPage } from "~/.server/domain/forum/forum-repository";
import { createTopic, deleteForumPost, editForumPost, moderate, postReply, setTopicMembership, startDiscussion } from "~/.server/domain/forum/forum-service";
import { ledgerXp } from "./ledger-xp";
import { topicWithDiscussions, discussionWithReplies } from "~/.server/domain/forum/forum-read-model";
import { featuredDiscussionSummaries } from "~/.server/domain/forum/section-read-model";
import { INITIATE_DAILY_POSTS_MESSAGE } from "~/lib/privileges";
import { discussion, member, topic } from "../factories";
import { createTestSite, ENGINE, type TestSite } from "./test-services";

let site: TestSite;
const topicRow = (id: string) =>
  site.services.db
    .selectFrom("topic")
    .select(["discussion_count", "reply_count", "member_count", "last_activity_at"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const discussionRow = (id: number) => site.services.db.selectFrom("discussion").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const key = () => crypto.randomUUID();

let topicId: string;
beforeAll(async () => {
  site = await createTestSite();
  const disciple = await member(site.services.db, { xp: 200 });
  const created = await createTopic(site.services, disciple, "monastery", { title: "Walking Meditation", description: "Slow steps." });
  if (!created.ok) throw new Error("topic");
  topicId = created.value.id;
});
afterAll(async () => {
  await site.destroy();
});

describe(`forum on ${ENGINE}`, () => {
  it("lets a disciple create a topic with a readable id, and tells an acolyte which rank unlocks it", async () => {
    expect(topicId).toBe("walking-meditation");
    expect((await topicRow(topicId)).member_count).toBe(1);
    const acolyte = await member(site.services.db, { xp: 60 });
    const refused = await createTopic(site.services, acolyte, "monastery", { title: "Another", description: "x" });
    expect(refused).toEqual({ ok: false, status: 403, errors: { form: "Creating topics unlocks at the Disciple rank (150 XP)." } });
    const again = await createTopic(site.services, await member(site.services.db, { xp: 200 }), "battlefield", {
      title: "Walking Meditation",
      description: "x",
    });
    expect(again.ok && again.value.id).toBe("walking-meditation-2");
  });

  it("20 members creating topics of one title at the same moment get 20 topics, ids numbered, no error", async () => {
    const makers = await Promise.all(Array.from({ length: 20 }, () => member(site.services.db, { xp: 200 })));
    const results = await Promise.all(makers.map((m) => createTopic(site.services, m, "monastery", { title: "Race to the Hall", description: "x" })));
    const ids = results.map((r) => (r.ok ? r.value.id : `failed ${r.status}`));
    expect(new Set(ids).size).toBe(20);
    expect([...ids].sort()).toEqual(["race-to-the-hall", ...Array.from({ length: 19 }, (_, i) => `race-to-the-hall-${i + 2}`)].sort());
    const members = await site.services.db.selectFrom("topic_member").select("topic_id").where("topic_id", "like", "race-to-the-hall%").execute();
    expect(members).toHaveLength(20);
  });

  it("joins and leaves a topic, moving the members count once", async () => {
    const m = await member(site.services.db);
    await setTopicMembership(site.services, m, topicId, true);
    await setTopicMembership(site.services, m, topicId, true);
    expect((await topicRow(topicId)).member_count).toBe(2);
    await setTopicMembership(site.services, m, topicId, false);
    await setTopicMembership(site.services, m, topicId, false);
    expect((await topicRow(topicId)).member_count).toBe(1);
  });

  it("starts a discussion: counts, activity and 5 XP move in one transaction; a double submit makes one", async () => {
    const m = await member(site.services.db);
    const k = key();
    const [a, b] = await Promise.all([
      startDiscussion(site.services, m, "monastery", topicId, { title: "Slow steps at dawn", body: "**Step** by step.", submissionKey: k }),
      startDiscussion(site.services, m, "monastery", topicId, { title: "Slow steps at dawn", body: "**Step** by step.", submissionKey: k }),
    ]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.value.id).toBe(b.value.id);
    expect(a.value.slug).toBe("slow-steps-at-dawn");
    expect((await topicRow(topicId)).discussion_count).toBe(1);
    expect(await ledgerXp(site.services.db, m.id)).toBe(5);
  });

  it("refuses a fourth discussion in a day from an initiate, not from an acolyte", async () => {
    const initiate = await member(site.services.db);
    for (let i = 0; i < 3; i++) {
      expect(
        (await startDiscussion(site.services, initiate, "monastery", topicId, { title: `Question number ${i}`, body: "x", submissionKey: key() })).ok,
      ).toBe(true);
    }
    const fourth = await startDiscussion(site.services, initiate, "monastery", topicId, { title: "Question number 4", body: "x", submissionKey: key() });
    expect(fourth.ok).toBe(false);
    if (!fourth.ok) expect(fourth.errors.form).toBe(INITIATE_DAILY_POSTS_MESSAGE);
    const acolyte = await member(site.services.db, { xp: 50 });
    for (let i = 0; i < 4; i++) {
      expect((await startDiscussion(site.services, acolyte, "monastery", topicId, { title: `Acolyte topic ${i}`, body: "x", submissionKey: key() })).ok).toBe(
        true,
      );
    }
  });

  it("stops a burst of writes with 429", async () => {
    const m = await member(site.services.db, { xp: 100 });
    const results = [];
    for (let i = 0; i < 31; i++) {
      results.push(await startDiscussion(site.services, m, "monastery", topicId, { title: `Burst number ${i}`, body: "x", submissionKey: key() }));
    }
    expect(results.slice(0, 30).every((r) => r.ok)).toBe(true);
    const last = results[30];
    expect(last.ok ? 200 : last.status).toBe(429);
  });

  it("an unknown topic is a 404", async () => {
    const r = await startDiscussion(site.services, await member(site.services.db), "monastery", "no-such-topic", {
      title: "Hello there",
      body: "x",
      submissionKey: key(),
    });
    expect(r.ok ? 200 : r.status).toBe(404);
  });

  it("two members replying at the same moment both land, and the replies count is exact", async () => {
    const author = await member(site.services.db, { xp: 100 });
    const started = await discussion(site.services, { topic: { id: topicId, section: "monastery" }, author, title: "Concurrent replies", body: "x" });
    const repliers = await Promise.all(Array.from({ length: 12 }, () => member(site.services.db)));
    const before = await topicRow(topicId);
    const results = await Promise.all(repliers.map((r) => postReply(site.services, r, started.id, { body: `Reply from ${r.name}`, submissionKey: key() })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect((await discussionRow(started.id)).reply_count).toBe(12);
    expect((await topicRow(topicId)).reply_count).toBe(before.reply_count + 12);
    const page = await replyPage(site.services.db, started.id, { kind: "first" });
    expect(page.rows).toHaveLength(12);
    expect(await ledgerXp(site.services.db, repliers[0].id)).toBe(2);
  });

  it("edits one's own post (marked edited) and refuses someone else's with 403", async () => {
    const author = await member(site.services.db, { xp: 100 });
    const other = await member(site.services.db);
    const started = await discussion(site.services, { topic: { id: topicId, section: "monastery" }, author, title: "Editable thoughts", body: "first" });
    const denied = await editForumPost(site.services, other, "discussion", started.id, { title: "Hijacked title", body: "mine now" });
    expect(denied.ok ? 200 : denied.status).toBe(403);
    expect((await editForumPost(site.services, author, "discussion", started.id, { title: "Edited thoughts here", body: "second" })).ok).toBe(true);
    const row = await discussionRow(started.id);
    expect(row).toMatchObject({ title: "Edited thoughts here", slug: "edited-thoughts-here", body: "second" });
    expect(row.edited_at).not.toBeNull();
  });

  it("stores the excerpt when a discussion is written and edited, and pages read it from the column", async () => {
    const author = await member(site.services.db, { xp: 100 });
    const started = await discussion(site.services, {
      topic: { id: topicId, section: "monastery" },
      author,
      title: "Excerpt at write time",
      body: "Sit **ten** minutes. See [my notes](https://example.org/n).",
    });
    const id = started.id;
    expect((await discussionRow(id)).excerpt).toBe("Sit ten minutes. See my notes.");
    expect((await editForumPost(site.services, author, "discussion", id, { body: `${"![".repeat(10_000)} _edited_` })).ok).toBe(true);
    expect((await discussionRow(id)).excerpt).toBe(`${"![".repeat(80)}…`);

    // A stored excerpt that no longer matches the body shows that no page makes its own from it.
    await site.services.db.updateTable("discussion").set({ excerpt: "Stored teaser" }).where("id", "=", id).execute();
    const mod = await member(site.services.db, { role: "moderator" });
    expect((await moderate(site.services, mod, "feature", "discussion", id)).ok).toBe(true);
    const topicView = await topicWithDiscussions(site.services.db, null, "monastery", topicId, { kind: "first" });
    expect(topicView!.discussions.find((d) => d.id === id)!.excerpt).toBe("Stored teaser");
    expect((await discussionWithReplies(site.services.db, null, id, { kind: "first" }))!.discussion.excerpt).toBe("Stored teaser");
    const featured = await featuredDiscussionSummaries(site.services.db, { section: "monastery", limit: 1 });
    expect(featured.map((d) => [d.id, d.excerpt])).toEqual([[id, "Stored teaser"]]);
  });

  it("deleting a reply keeps the thread, takes the XP back and moves the counts", async () => {
    const author = await member(site.services.db, { xp: 100 });
    const replier = await member(site.services.db);
    const started = await discussion(site.services, { topic: { id: topicId, section: "monastery" }, author, title: "Delete me later", body: "x" });
    const reply = await postReply(site.services, replier, started.id, { body: "soon gone", submissionKey: key() });
    if (!reply.ok) throw new Error("reply");
    const topicBefore = await topicRow(topicId);
    expect((await deleteForumPost(site.services, author, "reply", reply.value.id)).ok).toBe(false);
    expect((await deleteForumPost(site.services, replier, "reply", reply.value.id)).ok).toBe(true);
    expect((await discussionRow(started.id)).reply_count).toBe(0);
    expect((await topicRow(topicId)).reply_count).toBe(topicBefore.reply_count - 1);
    expect(await ledgerXp(site.services.db, replier.id)).toBe(0);
    const page = await replyPage(site.services.db, started.id, { kind: "first" });
    expect(page.rows[0].deleted_at).not.toBeNull();

    expect((await deleteForumPost(site.services, author, "discussion", started.id)).ok).toBe(true);
    expect((await topicRow(topicId)).discussion_count).toBe(topicBefore.discussion_count - 1);
    expect(await ledgerXp(site.services.db, author.id)).toBe(100);
  });

  it("moderators hide, restore, lock and feature, and every action is recorded; members cannot", async () => {
    const author = await member(site.services.db, { xp: 100 });
    const mod = await member(site.services.db, { role: "moderator" });
    const started = await discussion(site.services, { topic: { id: topicId, section: "monastery" }, author, title: "Moderated thread", body: "x" });
    const id = started.id;
    expect((await moderate(site.services, author, "lock", "discussion", id)).ok).toBe(false);
    const before = await topicRow(topicId);

    expect((await moderate(site.services, mod, "hide", "discussion", id)).ok).toBe(true);
    expect((await topicRow(topicId)).discussion_count).toBe(before.discussion_count - 1);
    const listed = await discussionPage(site.services.db, topicId, { kind: "first" }, { limit: 100 });
    expect(listed.rows.map((d) => d.id)).not.toContain(id);
    expect((await moderate(site.services, mod, "restore", "discussion", id)).ok).toBe(true);
    expect((await topicRow(topicId)).discussion_count).toBe(before.discussion_count);

    expect((await moderate(site.services, mod, "lock", "discussion", id)).ok).toBe(true);
    const locked = await postReply(site.services, await member(site.services.db), id, { body: "too late", submissionKey: key() });
    expect(locked).toEqual({ ok: false, status: 403, errors: { form: "This discussion is locked. No new replies can be posted." } });
    expect((await moderate(site.services, mod, "unlock", "discussion", id)).ok).toBe(true);
    expect((await moderate(site.services, mod, "feature", "discussion", id)).ok).toBe(true);
    expect((await discussionRow(id)).featured_at).not.toBeNull();

    const log = await site.services.db
      .selectFrom("moderation_action")
      .select(["actor_id", "action", "subject_type", "created_at"])
      .where("subject_id", "=", id)
      .orderBy("id")
      .execute();
    expect(log.map((l) => l.action)).toEqual(["hide", "restore", "lock", "unlock", "feature"]);
    expect(log.every((l) => l.actor_id === mod.id && l.subject_type === "discussion" && l.created_at)).toBe(true);
  });
});

describe(`after a restart on ${ENGINE}`, () => {
  it("keeps topics, discussions, replies, counts and XP", async () => {
    const author = await member(site.services.db, { xp: 100 });
    const replier = await member(site.services.db);
    const started = await discussion(site.services, { topic: { id: topicId, section: "monastery" }, author, title: "Survives a restart", body: "still here" });
    await postReply(site.services, replier, started.id, { body: "me too", submissionKey: key() });
    const counts = await topicRow(topicId);
    site = await site.reopen();
    expect(await topicRow(topicId)).toEqual(counts);
    expect((await discussionRow(started.id)).reply_count).toBe(1);
    const page = await replyPage(site.services.db, started.id, { kind: "first" });
    expect(page.rows.map((r) => r.body)).toEqual(["me too"]);
    expect(await ledgerXp(site.services.db, replier.id)).toBe(2);
  });
});

describe(`keyset pages on ${ENGINE}`, () => {
  it("walks a topic's discussions from the first page to the last and back without gaps or repeats", async () => {
    // Three authors: one alone would reach the burst limit on writes.
    const authors = [await member(site.services.db, { xp: 100 }), await member(site.services.db, { xp: 100 }), await member(site.services.db, { xp: 100 })];
    const created = await topic(site.services, { section: "battlefield", title: "Paged topic", description: "x" });
    const t0 = Date.now() - 100_000;
    for (let i = 0; i < 45; i++) {
      await startDiscussion(
        site.services,
        authors[i % 3],
        "battlefield",
        created.id,
        { title: `Paged discussion ${i}`, body: "x", submissionKey: key() },
        new Date(t0 + i * 1000),
      );
    }
    const seen: number[] = [];
    let page = await discussionPage(site.services.db, created.id, { kind: "first" });
    seen.push(...page.rows.map((r) => r.id));
    while (page.hasOlder) {
      const last = page.rows[page.rows.length - 1];
      page = await discussionPage(site.services.db, created.id, { kind: "after", cursor: { at: new Date(last.last_activity_at).toISOString(), id: last.id } });
      seen.push(...page.rows.map((r) => r.id));
    }
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
    const lastPage = await discussionPage(site.services.db, created.id, { kind: "last" });
    expect(lastPage.rows.map((r) => r.id)).toEqual(seen.slice(-20));
    expect(lastPage.hasOlder).toBe(false);
    expect(lastPage.hasNewer).toBe(true);
  });
});
