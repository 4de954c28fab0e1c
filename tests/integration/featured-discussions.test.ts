import { describe, expect, it } from "vitest";
import type { Db } from "~/.server/db/connect";
import { rebuildReplyHours } from "~/.server/db/reply-hours";
import { deleteForumPost, moderate, postReply } from "~/.server/domain/forum/forum-service";
import { engineOf } from "~/.server/db/connect";
import { replyHourPruningJob } from "~/.server/domain/forum/reply-hour-pruning";
import { busiestSinceQuery, FEATURED_WINDOW_DAYS, featuredDiscussions } from "~/.server/domain/forum/section-repository";
import { sql } from "kysely";
import type { SectionId } from "~/lib/domain-values";
import { discussion, member, topic } from "../factories";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

const site = testSiteForFile();
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
        const posted = await postReply(
          site.services,
          replier,
          d.id,
          { body: `Reply ${(n += 1)}`, submissionKey: crypto.randomUUID() },
          new Date(since + minutes * 60_000),
        );
        if (!posted.ok) throw new Error(JSON.stringify(posted));
        replies.push({ id: posted.value.id, discussion: d.id });
        if (n % 7 === 0) expect((await deleteForumPost(site.services, replier, "reply", posted.value.id, now)).ok).toBe(true);
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

  it("at 40,000 replies, reads the hours and one hour of replies through their indexes, never every reply", async () => {
    const db = site.services.db;
    const author = await member(db);
    const where = await topic(site.services, { section: "battlefield" });
    const now = new Date("2026-12-20T12:30:00.000Z");
    const day = 24 * 3_600_000;
    const ids: number[] = [];
    for (let i = 0; i < 200; i++) {
      const at = new Date(now.getTime() - 40 * day).toISOString();
      const row = await db
        .insertInto("discussion")
        .values({
          topic_id: where.id,
          author_id: author.id,
          title: `Scale ${i}`,
          slug: `scale-${i}`,
          body: "x",
          body_html: "<p>x</p>",
          excerpt: "x",
          created_at: at,
          last_activity_at: at,
          edited_at: null,
          deleted_at: null,
          hidden_at: null,
          locked_at: null,
          featured_at: null,
          submission_key: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    // 40,000 replies over 40 days, the busiest discussions busiest lately.
    for (let batch = 0; batch < 40; batch++) {
      await db
        .insertInto("reply")
        .values(
          Array.from({ length: 1000 }, (_, i) => {
            const k = batch * 1000 + i;
            const d = ids[(k * 7919) % (k % 3 === 0 ? 20 : 200)];
            return {
              discussion_id: d,
              author_id: author.id,
              body: "r",
              body_html: "<p>r</p>",
              created_at: new Date(now.getTime() - ((k * 104_729) % (40 * day))).toISOString(),
              edited_at: null,
              deleted_at: null,
              hidden_at: null,
              submission_key: null,
            };
          }),
        )
        .execute();
    }
    await rebuildReplyHours(db);
    await sql`analyze`.execute(db);

    const since = new Date(now.getTime() - FEATURED_WINDOW_DAYS * day);
    const query = busiestSinceQuery(db, since, "battlefield", 3).compile();
    const pg = engineOf(db) === "postgres";
    const explained = await db.executeQuery<Record<string, string>>({ ...query, sql: `${pg ? "explain" : "explain query plan"} ${query.sql}` });
    const lines = explained.rows.map((r) => (pg ? r["QUERY PLAN"] : r.detail));
    expect(lines.join("\n"), lines.join("\n")).not.toMatch(/Seq Scan on reply\b(?!_)|SCAN reply\b(?!_)/);
    const started = performance.now();
    const got = (await featuredDiscussions(db, { section: "battlefield", limit: 4, now })).filter((d) => d.featured_at === null).map((d) => d.id);
    const took = performance.now() - started;
    const reference = performance.now();
    expect(got).toEqual(await countedFromReplies(db, now, "battlefield", 3));
    console.info(
      `featured at 40,000 replies on ${ENGINE}: ${took.toFixed(1)} ms from the hours, ${(performance.now() - reference).toFixed(1)} ms counting replies`,
    );
  });
  it("keeps the hourly counts to the window: the worker's job drops older hours, once an hour, and the ranking stays", async () => {
    const db = site.services.db;
    const now = new Date("2027-02-10T12:30:00.000Z");
    const day = 24 * 3_600_000;
    const where = await topic(site.services, { section: "monastery" });
    const old = await discussion(site.services, { topic: { id: where.id, section: where.section }, at: new Date(now.getTime() - 30 * day) });
    const fresh = await discussion(site.services, { topic: { id: where.id, section: where.section }, at: new Date(now.getTime() - 30 * day) });
    for (const [d, daysAgo] of [
      [old, 20],
      [old, 9],
      [old, 1],
      [fresh, 2],
      [fresh, 1],
      [fresh, 0.5],
    ] as const) {
      const replier = await member(db);
      const posted = await postReply(
        site.services,
        replier,
        d.id,
        { body: `Reply ${daysAgo}`, submissionKey: crypto.randomUUID() },
        new Date(now.getTime() - daysAgo * day),
      );
      if (!posted.ok) throw new Error(JSON.stringify(posted));
    }
    const hoursOf = async (id: number) =>
      (await db.selectFrom("reply_hour").select("hour").where("discussion_id", "=", id).orderBy("hour").execute()).map((r) => r.hour);
    const ranked = async () => (await featuredDiscussions(db, { section: "monastery", limit: 10, now })).filter((d) => d.featured_at === null).map((d) => d.id);
    const before = await ranked();
    expect(await hoursOf(old.id)).toHaveLength(3);

    const job = replyHourPruningJob();
    const cutoff = new Date(now.getTime() - (FEATURED_WINDOW_DAYS + 1) * day).toISOString().slice(0, 13);
    expect(await job(db, now)).toBeGreaterThanOrEqual(2);
    expect((await hoursOf(old.id)).every((h) => h >= cutoff)).toBe(true);
    expect(await hoursOf(old.id)).toHaveLength(1);
    expect(await hoursOf(fresh.id)).toHaveLength(3);
    expect(await ranked()).toEqual(before);
    expect(before).toEqual(await countedFromReplies(db, now, "monastery", 10));

    // A bucket of an old hour (a reply of then restored) waits for the next hour's round.
    await db.insertInto("reply_hour").values({ discussion_id: old.id, section: "monastery", hour: "2027-01-01T00", replies: 1 }).execute();
    expect(await job(db, new Date(now.getTime() + 10 * 60_000))).toBe(0);
    expect(await hoursOf(old.id)).toContain("2027-01-01T00");
    expect(await job(db, new Date(now.getTime() + 61 * 60_000))).toBe(1);
    expect(await hoursOf(old.id)).not.toContain("2027-01-01T00");
  });
});
