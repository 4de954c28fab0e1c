import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { rebuildSearchIndex } from "~/.server/db/search/search-documents";
import { searchPostgres, type Way } from "~/.server/db/search/search-postgres";
import { parseSearchQuery } from "~/.server/db/search/search-query";
import { RANKED_WINDOW, type SearchCursor, type SearchRequest } from "~/.server/db/search/search-types";
import { anonymiseMember } from "~/.server/domain/accounts/member-repository";
import { createChallenge, reviewProposal } from "~/.server/domain/challenges/challenge-service";
import { answerQuestion, editQuestion } from "~/.server/domain/council/council-service";
import { cancelEvent, editEvent } from "~/.server/domain/events/event-service";
import { shareCreation } from "~/.server/domain/forge/creation-service";
import { commentOnCreation, moderateForge } from "~/.server/domain/forge/forge-engagement";
import { deleteForumPost, editForumPost, moderate, postReply } from "~/.server/domain/forum/forum-service";
import { searchResults, SEARCH_PAGE_SIZE, type SearchFilters, type SearchOutcome } from "~/.server/domain/search/search-read-model";
import { decodeSearchCursor } from "~/.server/pagination";
import { toIso } from "~/lib/dates";
import { rankById } from "~/lib/ranks";
import { advisor, discussion, event, member, question, topic } from "../factories";
import { createTestSite, ENGINE, type TestSite } from "./test-services";

let site: TestSite;
let moderator: Viewer;
let reader: Viewer;
beforeAll(async () => {
  site = await createTestSite();
  moderator = await member(site.services.db, { role: "moderator" });
  reader = await member(site.services.db);
});
afterAll(async () => site.destroy());

const ALL: SearchFilters = { kind: null, section: null, virtue: null, author: null, sort: "relevance", bookmarks: false };

async function search(query: string, filters: Partial<SearchFilters> = {}, viewer: Viewer | null = reader, after: string | null = null) {
  const outcome = await searchResults(site.services.db, viewer, query, { ...ALL, ...filters }, after ? decodeSearchCursor(after) : null);
  return outcome;
}
const found = (outcome: SearchOutcome) => (outcome.status === "found" ? outcome.results : []);
const keys = async (query: string, filters: Partial<SearchFilters> = {}, viewer: Viewer | null = reader) =>
  found(await search(query, filters, viewer)).map((r) => r.key);
const text = (pieces: ReadonlyArray<readonly [string, boolean]>) => pieces.map(([t]) => t).join("");
const marked = (pieces: ReadonlyArray<readonly [string, boolean]>) => pieces.filter(([, m]) => m).map(([t]) => t.toLowerCase());
const acolyte = () => member(site.services.db, { xp: rankById("acolyte").minXp });
const ok = <T>(outcome: { ok: true; value: T } | { ok: false }) => {
  if (!outcome.ok) throw new Error(`expected success: ${JSON.stringify(outcome)}`);
  return outcome.value;
};

/** A creation shared through the Forge (indexed as the site indexes it) by a new Acolyte, and a comment on it by another member. */
async function creationWithComment(creation: { title: string; description: string; body: string }, comment: string) {
  const author = await acolyte();
  const shared = ok(await shareCreation(site.services, author, { ...creation, type: "writing", submissionKey: crypto.randomUUID() }, {}));
  const commented = ok(
    await commentOnCreation(site.services, await member(site.services.db), shared.id, { body: comment, submissionKey: crypto.randomUUID() }),
  );
  return { author, creation: shared, comment: commented };
}

/** Every page of a search's results, followed by their cursors, as keys in the order shown. */
async function everyPage(query: string, filters: Partial<SearchFilters>, viewer: Viewer) {
  const seen: string[] = [];
  for (let next: string | null = null, first = true; first || next; first = false) {
    const outcome = await search(query, filters, viewer, next);
    if (outcome.status !== "found") throw new Error(outcome.status);
    seen.push(...outcome.results.map((r) => r.key));
    next = outcome.next;
  }
  return seen;
}

type IndexRow = { kind: "event" | "challenge"; ref_id: number; title: string; body: string; created_at: string; hidden?: number };

/**
 * Index rows written directly, `batch` to a statement (no post behind them: events and challenges
 * need none to be shown), then PostgreSQL's statistics brought up to date, as they would be on a
 * live site, so that its choice of window is the one it would make there. Removed with `removeIndexRows`.
 */
async function writeIndexRows(rows: readonly IndexRow[], batch: number) {
  const db = site.services.db;
  const values = rows.map((r) => ({ hidden: 0, parent_hidden: 0, virtues: "", ...r }));
  for (let i = 0; i < values.length; i += batch)
    await db
      .insertInto("search_document")
      .values(values.slice(i, i + batch))
      .execute();
  if (ENGINE === "postgres") await sql`analyze search_document`.execute(db);
}

const removeIndexRows = (kind: IndexRow["kind"], from: number) =>
  site.services.db.deleteFrom("search_document").where("kind", "=", kind).where("ref_id", ">=", from).execute();

describe(`search on ${ENGINE}`, () => {
  it("finds a discussion by a word of its body, by its stem, and an edit by its new word only", async () => {
    const d = await discussion(site.services, { title: "Dawn practice", body: "I keep a **quartzfox** journal while meditating by the river." });
    expect(await keys("quartzfox")).toEqual([`discussion:${d.id}`]);
    // The body's Markdown is gone from what is found and shown; the word is marked.
    const [hit] = found(await search("quartzfox"));
    expect(text(hit!.excerpt)).toContain("keep a quartzfox journal");
    expect(text(hit!.excerpt)).not.toContain("*");
    expect(marked(hit!.excerpt)).toEqual(["quartzfox"]);
    expect(hit!.url).toBe(`/${d.section}/${d.topicId}/${d.id}-${d.slug}`);
    expect(hit!.author?.name).toBe(d.author.name);
    // "meditation" and "meditating" share a stem on both engines.
    expect(await keys("quartzfox meditation")).toEqual([`discussion:${d.id}`]);

    ok(await editForumPost(site.services, d.author, "discussion", d.id, { title: "Dawn practice", body: "Now a velvetmoor notebook." }));
    expect(await keys("velvetmoor")).toEqual([`discussion:${d.id}`]);
    expect(await keys("quartzfox")).toEqual([]);
  });

  it("finds every kind, each with its own address and the title of what it is under", async () => {
    const d = await discussion(site.services, { title: "Cold water" });
    // Not the site's first reply, whose address has no page to begin after.
    ok(await postReply(site.services, await member(site.services.db), d.id, { body: "First!", submissionKey: crypto.randomUUID() }));
    const reply = ok(
      await postReply(site.services, await member(site.services.db), d.id, { body: "The cinderlark method works.", submissionKey: crypto.randomUUID() }),
    );
    const q = await question(site.services, { title: "How to cinderlark?", body: "Asking for a friend.", virtues: ["courage"] });
    const a = ok(await answerQuestion(site.services, await member(site.services.db), q.id, { body: "Cinderlark slowly.", submissionKey: crypto.randomUUID() }));
    const {
      author,
      creation: c,
      comment,
    } = await creationWithComment({ title: "Cinderlark poem", description: "A poem.", body: "Lines." }, "Lovely cinderlark.");
    const e = await event(site.services, { title: "Cinderlark walk", description: "We walk." });
    const publisher = await member(site.services.db, { role: "admin" });
    const ch = ok(
      await createChallenge(site.services, publisher, {
        title: "Thirty cinderlark mornings",
        description: "Each morning.",
        path: "warrior",
        virtues: ["courage"],
        lengthDays: 30,
        checkInsRequired: 20,
        submissionKey: crypto.randomUUID(),
      }),
    );

    const results = found(await search("cinderlark"));
    const byKey = new Map(results.map((r) => [r.key, r]));
    expect([...byKey.keys()].sort()).toEqual(
      [`reply:${reply.id}`, `question:${q.id}`, `answer:${a.id}`, `creation:${c.id}`, `comment:${comment.id}`, `event:${e.id}`, `challenge:${ch.id}`].sort(),
    );
    const discussionUrl = `/${d.section}/${d.topicId}/${d.id}-${d.slug}`;
    expect(byKey.get(`reply:${reply.id}`)).toMatchObject({ kindLabel: "Reply", url: `${discussionUrl}?after=${reply.id - 1}#reply-${reply.id}` });
    expect(text(byKey.get(`reply:${reply.id}`)!.title)).toBe("Cold water");
    expect(byKey.get(`answer:${a.id}`)).toMatchObject({ url: `/council/${q.id}#answer-${a.id}` });
    expect(text(byKey.get(`answer:${a.id}`)!.title)).toBe("How to cinderlark?");
    expect(byKey.get(`comment:${comment.id}`)).toMatchObject({ url: `/forge/${c.id}#comment-${comment.id}` });
    expect(byKey.get(`event:${e.id}`)).toMatchObject({ url: `/events/${e.id}` });
    expect(byKey.get(`challenge:${ch.id}`)).toMatchObject({ url: `/challenges/${ch.id}` });
    // A title's match is marked in the title.
    expect(marked(byKey.get(`question:${q.id}`)!.title)).toEqual(["cinderlark"]);

    // Filters: one kind, the virtue (questions and challenges carry theirs), the author.
    expect(await keys("cinderlark", { kind: "answer" })).toEqual([`answer:${a.id}`]);
    expect((await keys("cinderlark", { virtue: "courage" })).sort()).toEqual([`question:${q.id}`, `challenge:${ch.id}`].sort());
    expect(await keys("cinderlark", { virtue: "wisdom" })).toEqual([]);
    expect(await keys("cinderlark", { author: author.handle })).toEqual([`creation:${c.id}`]);
    expect(await search("cinderlark", { author: "nobody-by-this-handle" })).toEqual({ status: "no-author", author: "nobody-by-this-handle" });

    // A cancelled event and a declined or proposed challenge are not found.
    ok(await cancelEvent(site.services, e.host, e.id));
    expect(await keys("cinderlark", { kind: "event" })).toEqual([]);
    const sage = await member(site.services.db, { xp: rankById("sage").minXp });
    const proposal = ok(
      await createChallenge(site.services, sage, {
        title: "Proposed cinderlark",
        description: "Proposed.",
        path: "monk",
        virtues: ["wisdom"],
        lengthDays: 7,
        checkInsRequired: 5,
        submissionKey: crypto.randomUUID(),
      }),
    );
    expect(await keys("cinderlark", { kind: "challenge" })).toEqual([`challenge:${ch.id}`]);
    ok(await reviewProposal(site.services, publisher, proposal.id, "publish"));
    expect((await keys("cinderlark", { kind: "challenge" })).sort()).toEqual([`challenge:${ch.id}`, `challenge:${proposal.id}`].sort());
  });

  it("finds an edited event and question by their new words, and a question's new virtue", async () => {
    const host = await advisor(site.services);
    const e = await event(site.services, { host, title: "Tea evening" });
    const at = new Date(Date.now() + 72 * 3600_000);
    ok(
      await editEvent(site.services, host, e.id, {
        title: "Emberfinch tea evening",
        description: "Tea.",
        path: "monk",
        startsAt: at,
        endsAt: new Date(at.getTime() + 3600_000),
        timeZone: "UTC",
        onlineUrl: null,
        place: "The hall",
        capacity: 10,
      }),
    );
    expect(await keys("emberfinch")).toEqual([`event:${e.id}`]);

    const q = await question(site.services, { title: "Plain question", virtues: ["wisdom"] });
    ok(await editQuestion(site.services, q.asker, q.id, { title: "Emberfinch question", body: "Body", virtues: ["honor"] }));
    expect(await keys("emberfinch", { kind: "question", virtue: "honor" })).toEqual([`question:${q.id}`]);
    expect(await keys("emberfinch", { kind: "question", virtue: "wisdom" })).toEqual([]);
  });

  it("never shows hidden posts, or what is under them, to anyone but moderators", async () => {
    const d = await discussion(site.services, { title: "Thornquill thoughts", body: "Thornquill." });
    const reply = ok(await postReply(site.services, await member(site.services.db), d.id, { body: "A thornquill reply.", submissionKey: crypto.randomUUID() }));
    const everything = [`discussion:${d.id}`, `reply:${reply.id}`].sort();
    expect((await keys("thornquill")).sort()).toEqual(everything);

    ok(await moderate(site.services, moderator, "hide", "discussion", d.id));
    expect(await keys("thornquill")).toEqual([]);
    expect(await keys("thornquill", {}, null)).toEqual([]);
    const seen = found(await search("thornquill", {}, moderator));
    expect(seen.map((r) => r.key).sort()).toEqual(everything);
    expect(seen.every((r) => r.hidden)).toBe(true);

    ok(await moderate(site.services, moderator, "restore", "discussion", d.id));
    expect((await keys("thornquill")).sort()).toEqual(everything);

    // A hidden reply alone; a hidden creation takes its comments with it.
    ok(await moderate(site.services, moderator, "hide", "reply", reply.id));
    expect(await keys("thornquill")).toEqual([`discussion:${d.id}`]);
    const { creation: c, comment } = await creationWithComment({ title: "Thornquill art", description: "Made.", body: "x" }, "Thornquill!");
    expect((await keys("thornquill", { kind: "comment" })).sort()).toEqual([`comment:${comment.id}`]);
    ok(await moderateForge(site.services, moderator, "creation", c.id, true));
    expect(await keys("thornquill", { kind: "comment" })).toEqual([]);
    expect(await keys("thornquill", { kind: "creation" })).toEqual([]);
  });

  it("forgets a deleted post but keeps the replies of a deleted discussion, and signs a deleted member's posts as such", async () => {
    const d = await discussion(site.services, { title: "Mossgrain", body: "Mossgrain body." });
    const replier = await member(site.services.db);
    const reply = ok(await postReply(site.services, replier, d.id, { body: "Mossgrain reply.", submissionKey: crypto.randomUUID() }));
    ok(await deleteForumPost(site.services, d.author, "discussion", d.id));
    expect(await keys("mossgrain")).toEqual([`reply:${reply.id}`]);

    await anonymiseMember(
      site.services.db,
      replier.id,
      { name: "[deleted member]", handle: `deleted-${crypto.randomUUID().slice(0, 8)}`, email: `${crypto.randomUUID()}@deleted.invalid` },
      new Date().toISOString(),
    );
    const [hit] = found(await search("mossgrain"));
    expect(hit!.author).toEqual({ name: "[deleted member]", profile: null });

    ok(await deleteForumPost(site.services, replier, "reply", reply.id));
    expect(await keys("mossgrain")).toEqual([]);
  });

  it("reads phrases, prefixes and excluded words, and finds members by name", async () => {
    const t = await topic(site.services, { section: "battlefield" });
    const a = await discussion(site.services, { topic: t, title: "Shore run", body: "A long saltmarsh run at dawn." });
    const b = await discussion(site.services, { title: "Marsh walk", body: "A saltmarsh walk, long and slow, with no run." });
    expect((await keys("saltmarsh")).sort()).toEqual([`discussion:${a.id}`, `discussion:${b.id}`].sort());
    expect(await keys('"saltmarsh run"')).toEqual([`discussion:${a.id}`]);
    expect(await keys("saltmarsh -walk")).toEqual([`discussion:${a.id}`]);
    expect((await keys("saltmar*")).sort()).toEqual([`discussion:${a.id}`, `discussion:${b.id}`].sort());
    expect(await keys("saltmarsh", { section: "battlefield" })).toEqual([`discussion:${a.id}`]);
    // Only excluded words: nothing to start from.
    expect(await search("-saltmarsh")).toEqual({ status: "empty" });

    const named = await member(site.services.db, { name: "Oriel Saltmarsh" });
    const outcome = await search("saltmarsh");
    expect(outcome.status === "found" && outcome.members.map((m) => m.handle)).toEqual([named.handle]);
    const members = await search("oriel", { kind: "member" });
    expect(members.status === "found" && members.members.map((m) => m.profile)).toEqual([`/members/${named.handle}`]);
  });

  it("pages by keyset, best match or newest first, with no result twice and none left out", async () => {
    const t = await topic(site.services);
    const made: number[] = [];
    for (let i = 0; i < SEARCH_PAGE_SIZE + 5; i++) {
      // Some say the word more often, so the scores differ; some tie.
      const body = `Glimmerdune ${"glimmerdune ".repeat(i % 4)}entry ${i}.`;
      made.push((await discussion(site.services, { topic: t, title: `Entry ${i}`, body, at: new Date(Date.UTC(2026, 0, 1, 0, i)) })).id);
    }
    for (const sort of ["relevance", "newest"] as const) {
      const first = await search("glimmerdune", { sort });
      if (first.status !== "found") throw new Error(first.status);
      expect(first.results).toHaveLength(SEARCH_PAGE_SIZE);
      expect(first.next).not.toBeNull();
      const second = await search("glimmerdune", { sort }, reader, first.next);
      if (second.status !== "found") throw new Error(second.status);
      expect(second.results).toHaveLength(5);
      expect(second.next).toBeNull();
      const all = [...first.results, ...second.results].map((r) => Number(r.key.split(":")[1]));
      expect([...all].sort((x, y) => x - y)).toEqual([...made].sort((x, y) => x - y));
      if (sort === "newest") expect(all).toEqual([...made].reverse());
    }
  });

  it("answers any query string without an error: FTS syntax, SQL, quotes, NUL, every script", async () => {
    await discussion(site.services, { title: "Edge", body: "Ünïcödé café naïve 東京 Москва 🙂 test." });
    const hostile = [
      "NEAR(a b)",
      "a OR b AND NOT c",
      '"unbalanced',
      'a"b"c',
      "*",
      "-",
      "--",
      "- -",
      ":",
      "title:foo",
      "^foo",
      "foo*bar*",
      "'; drop table search_document; --",
      "\u0000\u0001\u0002x\u0003",
      "(((",
      "\\",
      "a & b | !c <-> d:*",
      "🙂🙂🙂",
      "東京",
      "москва",
      "cafe",
      "x".repeat(200),
      "a ".repeat(100),
    ];
    for (const query of hostile) {
      const outcome = await search(query);
      expect(["found", "empty"]).toContain(outcome.status);
    }
    // Diacritics and case fold on both engines; other scripts are words too.
    expect(found(await search("москва")).length).toBeGreaterThan(0);
  });

  it("ranks a common word's newest matches only, and pages newest first through all of them", async () => {
    // Index rows written directly (events need no place to be shown): more matches than the window.
    const count = RANKED_WINDOW + 15;
    const middle = count - 10 - Math.floor(RANKED_WINDOW / 2);
    const start = Date.UTC(2025, 0, 1);
    const rows = Array.from({ length: count }, (_, i) => ({
      kind: "event" as const,
      ref_id: 1_000_000 + i,
      // One in the window and one past it (the oldest) say the word in their title: a better match.
      title: i === 0 || i === middle ? "Windowmoss gathering" : `Gathering ${i}`,
      body: `A windowmoss evening, number ${i}.`,
      created_at: new Date(start + i * 60_000).toISOString(),
      // The newest ten are hidden: they take no place in an anonymous search's window.
      hidden: i >= count - 10 ? 1 : 0,
    }));
    // PostgreSQL's statistics then count the word as common: its window is walked, not read from the index.
    await writeIndexRows(rows, 100);
    try {
      const pages = (sort: "relevance" | "newest", viewer: Viewer, query = "windowmoss") => everyPage(query, { sort, kind: "event" }, viewer);
      const key = (i: number) => `event:${1_000_000 + i}`;
      const visible = Array.from({ length: count - 10 }, (_, i) => key(i));

      // Newest first: every visible match, newest first, none twice; a phrase's too (on PostgreSQL
      // read from the GIN index, the planner counting its two words as found wherever they stand).
      expect(await pages("newest", reader)).toEqual([...visible].reverse());
      expect(await pages("newest", reader, '"windowmoss evening"')).toEqual([...visible].reverse());
      expect(await pages("newest", reader, '"evening windowmoss"')).toEqual([]);

      // By relevance: the window's best first, then its others; the oldest matches past it are left out.
      const ranked = await pages("relevance", reader);
      expect(ranked).toHaveLength(RANKED_WINDOW);
      expect(new Set(ranked)).toEqual(new Set(visible.slice(-RANKED_WINDOW)));
      expect(ranked[0]).toBe(key(middle));
      expect(ranked).not.toContain(key(0));

      // A moderator's window holds the hidden ten too.
      const moderated = await pages("relevance", moderator);
      expect(new Set(moderated)).toEqual(new Set(rows.slice(-RANKED_WINDOW).map((r) => `event:${r.ref_id}`)));
    } finally {
      await removeIndexRows("event", 1_000_000);
    }
  });

  it("finds the window past the newest rows when they hold few of a word's matches", async () => {
    // 5,000 old matches and 5,000 newer rows without the word: on PostgreSQL the statistics count the
    // word in half the rows, so its window is walked for, and the walk (three times the rows it
    // expects to read) meets none; the GIN index then finds the matches older than the walk.
    const start = Date.UTC(2024, 0, 1);
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      kind: "challenge" as const,
      ref_id: 2_000_000 + i,
      title: `Trial ${i}`,
      body: i < 5000 ? `An oldbrook trial, number ${i}.` : `A later trial, number ${i}.`,
      created_at: new Date(start + i * 60_000).toISOString(),
    }));
    await writeIndexRows(rows, 500);
    try {
      const key = (i: number) => `challenge:${2_000_000 + i}`;
      const newest = await search("oldbrook", { sort: "newest", kind: "challenge" });
      if (newest.status !== "found") throw new Error(newest.status);
      expect(newest.results.map((r) => r.key)).toEqual(Array.from({ length: SEARCH_PAGE_SIZE }, (_, i) => key(4999 - i)));
      const ranked = await everyPage("oldbrook", { kind: "challenge" }, reader);
      expect(new Set(ranked)).toEqual(new Set(Array.from({ length: RANKED_WINDOW }, (_, i) => key(4999 - i))));
    } finally {
      await removeIndexRows("challenge", 2_000_000);
    }
  });

  it("makes the same index from scratch as the writes made it", async () => {
    const snapshot = () =>
      site.services.db
        .selectFrom("search_document")
        .select(["kind", "ref_id", "parent_id", "title", "body", "author_id", "section", "virtues", "hidden", "parent_hidden"])
        .orderBy("kind")
        .orderBy("ref_id")
        .execute();
    const before = await snapshot();
    expect(before.length).toBeGreaterThan(20);
    await site.services.db.transaction().execute((trx) => rebuildSearchIndex(trx));
    expect(await snapshot()).toEqual(before);
    // The rows go in oldest first, whatever their kind: search walks the newest matches by id.
    const byId = await site.services.db.selectFrom("search_document").select(["created_at"]).orderBy("id").execute();
    const times = byId.map((r) => toIso(r.created_at));
    expect(times).toEqual([...times].sort());
    // The rebuilt index answers as before.
    expect((await keys("glimmerdune")).length).toBe(SEARCH_PAGE_SIZE);
  });
});

// PostgreSQL finds a search's window one of several ways, chosen from the planner's estimate
// (search-postgres.ts, ADR 0076); a set small enough for a test always reads the GIN index. Each
// way is forced here, with step bounds that cut the matches anywhere: every way must give the
// answer reading the whole index gives, the phrase narrowed by its pairs of words included.
if (ENGINE === "postgres")
  describe("each way to PostgreSQL's window gives the same answer", () => {
    it("runs on connections that start no parallel workers (ADR 0076)", async () => {
      // Every connection of the pool, not only the first: as many at once as the pool opens.
      const settings = await Promise.all(
        Array.from({ length: 4 }, () =>
          sql<{ workers: string }>`select current_setting('max_parallel_workers_per_gather') as workers, pg_sleep(0.05)`.execute(site.services.db),
        ),
      );
      expect(settings.map((s) => s.rows[0]!.workers)).toEqual(["0", "0", "0", "0"]);
    });

    it("reading the index, walking the newest rows, or stepping back from the newest id, by relevance and newest first, a page on", async () => {
      const start = Date.UTC(2023, 0, 1);
      const count = 800;
      // Every third row says "amber fernquill" side by side, every fifth the two words apart, and
      // every seventh "amber of fernquill" (a stop word between: a phrase its pairs cannot narrow).
      const body = (i: number) =>
        [
          i % 3 === 0 ? "An amber fernquill" : "A plain",
          i % 5 === 0 ? "fernquill under the amber" : "evening",
          i % 7 === 0 ? "amber of fernquill" : "",
          `number ${i}.`,
        ].join(" ");
      const rows = Array.from({ length: count }, (_, i) => ({
        kind: "event" as const,
        ref_id: 3_000_000 + i,
        title: i % 11 === 0 ? "Fernquill night" : `Night ${i}`,
        body: body(i),
        created_at: new Date(start + i * 60_000).toISOString(),
        hidden: i % 13 === 0 ? 1 : 0,
      }));
      await writeIndexRows(rows, 200);
      try {
        const ids = (
          await site.services.db.selectFrom("search_document").select("id").where("kind", "=", "event").where("ref_id", ">=", 3_000_000).orderBy("id").execute()
        ).map((r) => r.id);
        const newestId = ids.at(-1)!;
        const ways: Way[] = [
          { kind: "index" },
          { kind: "walk", rows: 40 },
          { kind: "walk", rows: 5000 },
          { kind: "steps", first: newestId - 60, second: newestId - 300 },
          { kind: "steps", first: newestId - 150, second: newestId - 150 },
          { kind: "steps", first: newestId + 10, second: ids[0]! - 10 },
          { kind: "steps", first: ids[0]! + 5, second: ids[0]! },
        ];
        const request = (query: string, sort: "relevance" | "newest", after: SearchCursor | null = null): SearchRequest => ({
          terms: parseSearchQuery(query),
          kinds: ["event"],
          section: null,
          virtue: null,
          authorId: null,
          bookmarkedBy: null,
          includeHidden: false,
          sort,
          after,
          limit: 40,
        });
        const answer = async (query: string, sort: "relevance" | "newest", way: Way) => {
          const first = await searchPostgres(site.services.db, request(query, sort), way);
          const last = first.at(-1)!;
          const second = await searchPostgres(site.services.db, request(query, sort, { score: last.score, createdAt: last.createdAt, id: last.id }), way);
          return [...first, ...second].map((hit) => `${hit.refId}:${hit.score.toFixed(5)}`);
        };
        const shown = (i: number) => i % 13 !== 0;
        const expected = {
          fernquill: rows.filter((_, i) => shown(i) && (i % 3 === 0 || i % 5 === 0 || i % 7 === 0 || i % 11 === 0)).length,
          '"amber fernquill"': rows.filter((_, i) => shown(i) && i % 3 === 0).length,
          // "An amber fernquill fernquill under the amber" has them two apart as well.
          '"amber of fernquill"': rows.filter((_, i) => shown(i) && (i % 7 === 0 || i % 15 === 0)).length,
        };
        for (const [query, matches] of Object.entries(expected)) {
          // The newest forty by time, a page on: what reading every match finds.
          const newest = await answer(query, "newest", { kind: "index" });
          expect(newest, query).toHaveLength(Math.min(80, matches));
          const ranked = await answer(query, "relevance", { kind: "index" });
          for (const way of ways) {
            expect(await answer(query, "newest", way), `${query} newest ${JSON.stringify(way)}`).toEqual(newest);
            expect(await answer(query, "relevance", way), `${query} relevance ${JSON.stringify(way)}`).toEqual(ranked);
          }
        }
        // The pairs leave out rows with both words apart, and a phrase's reversed words find nothing.
        const phrase = await searchPostgres(site.services.db, { ...request('"amber fernquill"', "newest"), limit: 1000 });
        expect(phrase.every((hit) => (hit.refId - 3_000_000) % 3 === 0)).toBe(true);
        expect(await searchPostgres(site.services.db, request('"fernquill amber"', "newest"))).toEqual([]);
      } finally {
        await removeIndexRows("event", 3_000_000);
      }
    });
  });
