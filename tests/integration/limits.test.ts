import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVALID_CREDENTIALS, registerMember, signInMember } from "~/.server/domain/accounts/account-service";
import { answerQuestion, askQuestion } from "~/.server/domain/council/council-service";
import { postReply, startDiscussion } from "~/.server/domain/forum/forum-service";
import { hit } from "~/.server/rate-limit";
import { rateLimitPruningJob } from "~/.server/mail/outbox-worker";
import { JOIN_LIMIT, SIGN_IN_LIMIT, WRITE_LIMIT } from "~/lib/limits";
import { INITIATE_DAILY_POSTS, INITIATE_DAILY_POSTS_MESSAGE } from "~/lib/privileges";
import { joinSchema } from "~/schemas/account";
import { creation, discussion, member, question, topic } from "../factories";
import { createTestSite, ENGINE, type TestSite } from "./test-services";

// Every limit is checked and recorded in one atomic step (PRODUCT.md §7, ADR 0013): 50 requests at
// the same moment get exactly the limit, on both engines.
const PARALLEL = 50;

let site: TestSite;
const key = () => crypto.randomUUID();
const headers = () => new Headers({ "user-agent": "vitest" });

function joinValues(email: string, fullName = "Grace Hopper") {
  return joinSchema.parse({ fullName, email, password: "Secret123", confirmPassword: "Secret123", termsAccepted: true });
}

const statusOf = (r: { ok: boolean; status?: number }) => (r.ok ? 200 : r.status);
const tally = (statuses: (number | undefined)[]) =>
  statuses.reduce<Record<string, number>>((all, s) => ({ ...all, [String(s)]: (all[String(s)] ?? 0) + 1 }), {});

let topicId: string;
beforeAll(async () => {
  site = await createTestSite();
  topicId = (await topic(site.services, { title: "Limits", description: "For the limits." })).id;
});
afterAll(async () => {
  await site.destroy();
});

describe(`limits under ${PARALLEL} parallel requests on ${ENGINE}`, { timeout: 60_000 }, () => {
  it(`hit() records exactly max hits of one key`, async () => {
    const results = await Promise.all(Array.from({ length: PARALLEL }, () => hit(site.services.db, [{ key: "test:parallel", max: 7, windowMs: 60_000 }])));
    expect(results.filter((r) => r.ok)).toHaveLength(7);
    const rows = await site.services.db.selectFrom("rate_limit_hit").select("id").where("key", "=", "test:parallel").execute();
    expect(rows).toHaveLength(7);
  });

  it("the hourly pruning deletes hits over a day old of every key and leaves the counting ones", async () => {
    const db = site.services.db;
    const now = new Date("2020-01-02T00:00:00Z");
    const seenOnce = { key: "test:ip-seen-once", max: 1, windowMs: 60 * 60 * 1000 };
    const counting = { key: "test:counting", max: 1, windowMs: 60 * 60 * 1000 };
    expect((await hit(db, [seenOnce], new Date("2019-12-30T08:00:00Z"))).ok).toBe(true);
    expect((await hit(db, [counting], new Date("2020-01-01T23:30:00Z"))).ok).toBe(true);
    const keys = async () =>
      (await db.selectFrom("rate_limit_hit").select("key").where("key", "like", "test:%").where("hit_at", "<", now.toISOString()).execute()).map((r) => r.key);
    expect(await keys()).toEqual(expect.arrayContaining([seenOnce.key, counting.key]));
    expect(await rateLimitPruningJob()(db, now)).toBe(1);
    expect(await keys()).not.toContain(seenOnce.key);
    expect(await keys()).toContain(counting.key);
    expect(await hit(db, [counting], now)).toEqual({ ok: false, retryMinutes: 30 });
  });

  it("never asks to wait longer than the window, even for a request whose clock was read before the window filled", async () => {
    const filled = new Date("2026-11-22T12:00:30Z");
    const limit = { key: "test:late-clock", max: 1, windowMs: 60 * 60 * 1000 };
    expect((await hit(site.services.db, [limit], filled)).ok).toBe(true);
    // This request read its clock 30 s earlier and then waited for the lock.
    expect(await hit(site.services.db, [limit], new Date("2026-11-22T12:00:00Z"))).toEqual({ ok: false, retryMinutes: 60 });
  });

  it(`checks at most ${SIGN_IN_LIMIT} passwords of one address; the rest get 429 unchecked`, async () => {
    const email = "sign-in-race@example.org";
    expect((await registerMember(site.services, joinValues(email), { headers: headers(), ip: "10.60.0.1" })).ok).toBe(true);
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        signInMember(site.services, { email, password: "Wrong1234", rememberMe: false }, { headers: headers(), ip: `10.61.0.${i}` }),
      ),
    );
    expect(tally(results.map(statusOf))).toEqual({ 400: SIGN_IN_LIMIT, 429: PARALLEL - SIGN_IN_LIMIT });
    expect(results.filter((r) => !r.ok && r.errors.form === INVALID_CREDENTIALS)).toHaveLength(SIGN_IN_LIMIT);
    // The right password is not checked either until the window has room again.
    const right = await signInMember(site.services, { email, password: "Secret123", rememberMe: false }, { headers: headers(), ip: "10.61.1.1" });
    expect(statusOf(right)).toBe(429);
  });

  it(`checks at most ${SIGN_IN_LIMIT} passwords from one IP across addresses`, async () => {
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        signInMember(site.services, { email: `nobody${i}@example.org`, password: "Wrong1234", rememberMe: false }, { headers: headers(), ip: "10.62.0.1" }),
      ),
    );
    expect(tally(results.map(statusOf))).toEqual({ 400: SIGN_IN_LIMIT, 429: PARALLEL - SIGN_IN_LIMIT });
  });

  it("a right password gives its attempt back: only failures count against an IP", async () => {
    const email = "often@example.org";
    expect((await registerMember(site.services, joinValues(email), { headers: headers(), ip: "10.63.0.1" })).ok).toBe(true);
    for (let i = 0; i < SIGN_IN_LIMIT + 2; i++) {
      const r = await signInMember(site.services, { email, password: "Secret123", rememberMe: false }, { headers: headers(), ip: "10.63.0.2" });
      expect(statusOf(r)).toBe(200);
    }
  });

  it(`lets exactly ${JOIN_LIMIT} of ${PARALLEL} parallel joins from one IP through, then 429 with the site's message`, async () => {
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        registerMember(site.services, joinValues(`joiner${i}@example.org`, `Joiner ${i}`), { headers: headers(), ip: "10.64.0.1" }),
      ),
    );
    expect(tally(results.map(statusOf))).toEqual({ 200: JOIN_LIMIT, 429: PARALLEL - JOIN_LIMIT });
    const refused = results.find((r) => !r.ok)!;
    expect(refused.ok ? "" : refused.errors.form).toBe("Too many attempts. Try again in 60 minutes.");
    const joined = await site.services.db.selectFrom("member").select("id").where("email", "like", "joiner%").execute();
    expect(joined).toHaveLength(JOIN_LIMIT);
    // Another address is not held back by this one.
    expect(statusOf(await registerMember(site.services, joinValues("elsewhere@example.org"), { headers: headers(), ip: "10.64.0.2" }))).toBe(200);
  });

  it(`lets an initiate start exactly ${INITIATE_DAILY_POSTS} of ${PARALLEL} parallel discussions`, async () => {
    const initiate = await member(site.services.db);
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        startDiscussion(site.services, initiate, "monastery", topicId, { title: `Parallel ${i}`, body: "x", submissionKey: key() }),
      ),
    );
    expect(tally(results.map(statusOf))).toEqual({ 200: INITIATE_DAILY_POSTS, 429: PARALLEL - INITIATE_DAILY_POSTS });
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, status: 429, errors: { form: INITIATE_DAILY_POSTS_MESSAGE } });
    const rows = await site.services.db.selectFrom("discussion").select("id").where("author_id", "=", initiate.id).execute();
    expect(rows).toHaveLength(INITIATE_DAILY_POSTS);
  });

  it(`counts an initiate's discussions, questions and creations together, ${INITIATE_DAILY_POSTS} a day`, async () => {
    const initiate = await member(site.services.db);
    await creation(site.services.db, { author: initiate, title: "A poem", type: "writing" });
    expect((await startDiscussion(site.services, initiate, "monastery", topicId, { title: "One discussion", body: "x", submissionKey: key() })).ok).toBe(true);
    expect((await askQuestion(site.services, initiate, { title: "One question here", body: "x", virtues: ["wisdom"], submissionKey: key() })).ok).toBe(true);
    const secondQuestion = await askQuestion(site.services, initiate, { title: "Second question", body: "x", virtues: ["wisdom"], submissionKey: key() });
    expect(secondQuestion).toEqual({ ok: false, status: 429, errors: { form: INITIATE_DAILY_POSTS_MESSAGE } });
    const secondDiscussion = await startDiscussion(site.services, initiate, "monastery", topicId, {
      title: "Second discussion",
      body: "x",
      submissionKey: key(),
    });
    expect(secondDiscussion).toEqual({ ok: false, status: 429, errors: { form: INITIATE_DAILY_POSTS_MESSAGE } });
  });

  it(`asks exactly ${INITIATE_DAILY_POSTS} of ${PARALLEL} parallel questions and discussions from an initiate, counted together`, async () => {
    const initiate = await member(site.services.db);
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        i % 2
          ? askQuestion(site.services, initiate, { title: `Parallel question ${i}`, body: "x", virtues: ["wisdom"], submissionKey: key() })
          : startDiscussion(site.services, initiate, "monastery", topicId, { title: `Parallel ${i}`, body: "x", submissionKey: key() }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(INITIATE_DAILY_POSTS);
  });

  it("a repeated submission key still returns the first post once the limit is reached", async () => {
    const initiate = await member(site.services.db);
    const keys = [key(), key(), key()];
    for (const k of keys)
      expect((await startDiscussion(site.services, initiate, "monastery", topicId, { title: "Same again", body: "x", submissionKey: k })).ok).toBe(true);
    const again = await Promise.all(
      keys.map((k) => startDiscussion(site.services, initiate, "monastery", topicId, { title: "Same again", body: "x", submissionKey: k })),
    );
    expect(again.every((r) => r.ok)).toBe(true);
    const rows = await site.services.db.selectFrom("discussion").select("id").where("author_id", "=", initiate.id).execute();
    expect(rows).toHaveLength(3);
  });

  it(`holds the write burst limit at exactly ${WRITE_LIMIT.max} of ${PARALLEL} parallel replies`, async () => {
    const author = await member(site.services.db, { xp: 100 });
    const started = await discussion(site.services, { topic: { id: topicId, section: "monastery" }, author, title: "Burst target", body: "x" });
    const replier = await member(site.services.db, { xp: 100 });
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, () => postReply(site.services, replier, started.id, { body: "Again", submissionKey: key() })),
    );
    expect(tally(results.map(statusOf))).toEqual({ 200: WRITE_LIMIT.max, 429: PARALLEL - WRITE_LIMIT.max });
    const rows = await site.services.db.selectFrom("reply").select("id").where("author_id", "=", replier.id).execute();
    expect(rows).toHaveLength(WRITE_LIMIT.max);
  });

  it(`holds the write burst limit across kinds: ${WRITE_LIMIT.max} of ${PARALLEL} parallel answers and discussions`, async () => {
    const asker = await member(site.services.db, { xp: 100 });
    const asked = await question(site.services, { asker, title: "A question to answer", body: "x" });
    const sage = await member(site.services.db, { xp: 500 });
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        i % 2
          ? answerQuestion(site.services, sage, asked.id, { body: "An answer", submissionKey: key() })
          : startDiscussion(site.services, sage, "monastery", topicId, { title: `Sage ${i}`, body: "x", submissionKey: key() }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(WRITE_LIMIT.max);
  });
});
