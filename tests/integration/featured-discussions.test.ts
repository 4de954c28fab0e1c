import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/.server/db/connect";
import { rebuildReplyHours } from "~/.server/db/reply-hours";
import { deletePost, moderate, postReply } from "~/.server/domain/forum/forum-service";
import { FEATURED_WINDOW_DAYS, featuredDiscussions } from "~/.server/domain/forum/section-repository";
import type { SectionId } from "~/lib/domain-values";
import { discussion, member, topic } from "../factories";
import { createTestSite, ENGINE, type TestSite } from "./test-services";

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(async () => {
  await site.destroy();
});

/**
 * "The most replied in the last 7 days" as it was counted before the hourly buckets (ADR 0027):
 * every visible reply after the window's start, per discussion. The buckets must give the same.
 */
async function countedFromReplies(db: Db, now: Date, section: SectionId | undefined, limit: number) {
  const since = new Date(now.getTime() - FEATURED_WINDOW_DAYS * 24 * 60 * 60 * 1000).toISOString();
  let busiest = db
    .selectFrom("reply")
    .innerJoin("discussion", "discussion.id", "reply.discussion_id")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["reply.discussion_id", (eb) => eb.fn.countAll<number>().as("recent")])
    .where("reply.created_at", ">", since)
    .where("reply.deleted_at", "is", null)
    .where("reply.hidden_at", "is", null)
    .where("discussion.featured_at", "is", null)
    .where("discussion.deleted_at", "is", null)
    .where("discussion.hidden_at", "is", null);
  if (section) busiest = busiest.where("topic.section", "=", section);
  const rows = await busiest.groupBy("reply.discussion_id").orderBy("recent", "desc").orderBy("reply.discussion_id", "desc").limit(limit).execute();
  return rows.map((r) => Number(r.discussion_id));
}

describe(`featured discussions from hourly reply counts on ${ENGINE}`, () => {
  it("rank as counting every recent reply did: the window's edge inside an hour, deleted, hidden and featured ones, both sections", async () => {
    const db = site.services.db;
    const now = new Date("2026-11-20T12:30:00.000Z");
    const since = now.getTime() - FEATURED_WINDOW_DAYS * 24 * 60 * 60 * 1000;
    const mod = await member(db, { role: "moderator" });
    const topics = [await topic(site.services, { section: "monastery" }), await topic(site.services, { section: "battlefield" })];
    const discussions = [];
    for (let i = 0; i < 8; i++) {
      const where = topics[i % 2];
      discussions.push(await discussion(site.services, { topic: { id: where.id, section: where.section }, at: new Date(since - 3_600_000) }));
    }
    // Minutes from the window's start: before it (same hour and earlier), exactly on it, just after, and days later.
    const offsets = [-24 * 60, -50, -20, 0, 0.001, 10, 25, 45, 90, 3 * 24 * 60, 6.9 * 24 * 60];
    const replies: { id: number; discussion: number }[] = [];
    let n = 0;
    for (const [i, d] of discussions.entries()) {
      for (const [j, minutes] of offsets.entries()) {
        if ((i * 7 + j * 3) % 5 === 0) continue; // a different mix per discussion
        const replier = await member(db);
        const posted = await postReply(site.services, replier, d.id, { body: `Reply ${(n += 1)}`, submissionKey: crypto.randomUUID() }, new Date(since + minutes * 60_000));
        if (!posted.ok) throw new Error(JSON.stringify(posted));
        replies.push({ id: posted.value.id, discussion: d.id });
        if (n % 7 === 0) expect((await deletePost(site.services, replier, "reply", posted.value.id, now)).ok).toBe(true);
        if (n % 11 === 0) expect((await moderate(site.services, mod, "hide", "reply", posted.value.id, now)).ok).toBe(true);
        if (n % 22 === 0) expect((await moderate(site.services, mod, "restore", "reply", posted.value.id, now)).ok).toBe(true);
      }
    }
    expect((await moderate(site.services, mod, "feature", "discussion", discussions[3].id, now)).ok).toBe(true);
    expect((await moderate(site.services, mod, "hide", "discussion", discussions[4].id, now)).ok).toBe(true);

    const check = async () => {
      for (const section of ["monastery", "battlefield", undefined] as const) {
        const expected = await countedFromReplies(db, now, section, 10);
        expect(expected.length).toBeGreaterThan(1);
        const got = (await featuredDiscussions(db, { section, limit: 10, now })).filter((d) => d.featured_at === null).map((d) => d.id);
        expect(got, section ?? "all sections").toEqual(expected);
      }
      // Later: the window has moved past most of these replies.
      const later = new Date(now.getTime() + 6.95 * 24 * 3_600_000);
      const got = (await featuredDiscussions(db, { limit: 10, now: later })).filter((d) => d.featured_at === null).map((d) => d.id);
      expect(got).toEqual(await countedFromReplies(db, later, undefined, 10));
    };
    await check();
    // Rebuilt from the reply rows (as demo content and benchmarks do), the buckets rank the same.
    await rebuildReplyHours(db);
    await check();
  });
});
