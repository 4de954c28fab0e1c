import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import {
  acceptAnswer,
  answerQuestion,
  askQuestion,
  deleteAnswer,
  editQuestion,
  grantAdvisor,
  recordView,
  revokeAdvisor,
  setHelpful,
  viewerKey,
} from "~/.server/domain/council/council-service";
import { questionFeed, questionWithAnswers, questionSummaries } from "~/.server/domain/council/council-read-model";
import { DAILY_VOTE_XP_CAP, XP } from "~/lib/xp";
import { ledgerXp } from "./ledger-xp";
import { answer, member, question } from "../factories";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

const site = testSiteForFile();
const key = () => crypto.randomUUID();
const xpOf = async (m: Viewer) => ledgerXp(site.services.db, m.id);

describe(`Council on ${ENGINE}`, () => {
  it("asks with virtues and 2 XP; a double submit makes one question", async () => {
    const asker = await member(site.services.db, { xp: 100 });
    const k = key();
    const [a, b] = await Promise.all([
      askQuestion(site.services, asker, { title: "Same question twice", body: "x", virtues: ["courage", "honor"], submissionKey: k }),
      askQuestion(site.services, asker, { title: "Same question twice", body: "x", virtues: ["courage", "honor"], submissionKey: k }),
    ]);
    expect(a.ok && b.ok && a.value.id === b.value.id).toBe(true);
    expect(await xpOf(asker)).toBe(100 + XP["question.asked"]);
    const page = await questionWithAnswers(site.services.db, (a as { value: { id: number } }).value.id);
    expect(page?.question.virtues).toEqual(["courage", "honor"]);
  });

  it("answers (5 XP), refuses a missing question with 404", async () => {
    const asker = await member(site.services.db, { xp: 100 });
    const helper = await member(site.services.db);
    const q = (await question(site.services, { asker })).id;
    await answer(site.services, q, { author: helper });
    expect(await xpOf(helper)).toBe(XP["answer.posted"]);
    const missing = await answerQuestion(site.services, helper, 999_999, { body: "x", submissionKey: key() });
    expect(missing.ok ? 200 : missing.status).toBe(404);
  });

  it("only the asker accepts; the 15 XP follow the mark when it moves, and leave when it is taken off", async () => {
    const asker = await member(site.services.db, { xp: 100 });
    const first = await member(site.services.db);
    const second = await member(site.services.db);
    const q = (await question(site.services, { asker })).id;
    const a1 = (await answer(site.services, q, { author: first })).id;
    const a2 = (await answer(site.services, q, { author: second })).id;
    const stranger = await acceptAnswer(site.services, first, q, a1);
    expect(stranger.ok ? 200 : stranger.status).toBe(403);

    expect((await acceptAnswer(site.services, asker, q, a1)).ok).toBe(true);
    expect(await xpOf(first)).toBe(XP["answer.posted"] + XP["answer.accepted"]);
    expect((await acceptAnswer(site.services, asker, q, a2)).ok).toBe(true);
    expect(await xpOf(first)).toBe(XP["answer.posted"]);
    expect(await xpOf(second)).toBe(XP["answer.posted"] + XP["answer.accepted"]);
    const page = await questionWithAnswers(site.services.db, q);
    expect(page?.answers[0].id).toBe(a2);
    expect(page?.answers[0].accepted).toBe(true);
    expect((await acceptAnswer(site.services, asker, q, null)).ok).toBe(true);
    expect(await xpOf(second)).toBe(XP["answer.posted"]);
  });

  it("accepting four answers at once, five times each, never deadlocks: one stays accepted, with its 15 XP alone", async () => {
    const asker = await member(site.services.db, { xp: 100 });
    const authors = await Promise.all(Array.from({ length: 4 }, () => member(site.services.db)));
    const q = (await question(site.services, { asker })).id;
    const answers = [];
    for (const author of authors) answers.push((await answer(site.services, q, { author })).id);
    const results = await Promise.all(answers.flatMap((a) => Array.from({ length: 5 }, () => acceptAnswer(site.services, asker, q, a))));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const accepted = (await questionWithAnswers(site.services.db, q))!.answers.filter((a) => a.accepted);
    expect(accepted).toHaveLength(1);
    const xp = await Promise.all(authors.map((a) => xpOf(a)));
    const winner = answers.indexOf(accepted[0].id);
    expect(xp).toEqual(authors.map((_, i) => XP["answer.posted"] + (i === winner ? XP["answer.accepted"] : 0)));
  });

  it("helpful votes: acolyte and up, not on one's own answer, once each, undoable, and they move the order", async () => {
    const asker = await member(site.services.db, { xp: 100 });
    const early = await member(site.services.db);
    const late = await member(site.services.db);
    const q = (await question(site.services, { asker })).id;
    const aEarly = (await answer(site.services, q, { author: early, body: "early" })).id;
    const aLate = (await answer(site.services, q, { author: late, body: "late" })).id;
    const initiate = await member(site.services.db, { xp: 10 });
    const refused = await setHelpful(site.services, initiate, aLate, true);
    expect(refused).toEqual({ ok: false, status: 403, errors: { form: "Marking answers helpful unlocks at the Acolyte rank (50 XP)." } });
    const own = await setHelpful(site.services, { ...late }, aLate, true);
    expect(own.ok ? 200 : own.status).toBe(403);

    const voter = await member(site.services.db, { xp: 60 });
    expect((await questionWithAnswers(site.services.db, q))?.answers.map((a) => a.id)).toEqual([aEarly, aLate]);
    await setHelpful(site.services, voter, aLate, true);
    await setHelpful(site.services, voter, aLate, true);
    const after = await questionWithAnswers(site.services.db, q);
    expect(after?.answers.map((a) => a.id)).toEqual([aLate, aEarly]);
    expect(after?.answers[0].helpful).toBe(1);
    expect(await xpOf(late)).toBe(XP["answer.posted"] + XP["answer.helpful"]);
    await setHelpful(site.services, voter, aLate, false);
    expect((await questionWithAnswers(site.services.db, q))?.answers[0].helpful).toBe(0);
    expect(await xpOf(late)).toBe(XP["answer.posted"]);
  });

  it("50 simultaneous helpful votes from 50 members each count exactly once, and XP stops at the daily cap", async () => {
    const asker = await member(site.services.db, { xp: 100 });
    const author = await member(site.services.db);
    const q = (await question(site.services, { asker })).id;
    const a = (await answer(site.services, q, { author })).id;
    const voters = await Promise.all(Array.from({ length: 50 }, () => member(site.services.db, { xp: 60 })));
    const results = await Promise.all(voters.map((v) => setHelpful(site.services, v, a, true)));
    expect(results.every((r) => r.ok)).toBe(true);
    const row = await site.services.db.selectFrom("answer").select("helpful_count").where("id", "=", a).executeTakeFirstOrThrow();
    expect(Number(row.helpful_count)).toBe(50);
    const votes = await site.services.db.selectFrom("helpful_vote").select("member_id").where("answer_id", "=", a).execute();
    expect(votes).toHaveLength(50);
    // 5 for answering, then 2 per vote until the cap of 50 from votes and likes.
    expect(await xpOf(author)).toBe(XP["answer.posted"] + DAILY_VOTE_XP_CAP);
  });

  it("edits one's own question and refuses someone else's; deleting an answer takes its XP back", async () => {
    const asker = await member(site.services.db, { xp: 100 });
    const other = await member(site.services.db, { xp: 100 });
    const q = (await question(site.services, { asker })).id;
    const denied = await editQuestion(site.services, other, q, { title: "Hijacked title!", body: "x", virtues: ["honor"] });
    expect(denied.ok ? 200 : denied.status).toBe(403);
    expect((await editQuestion(site.services, asker, q, { title: "Edited question title", body: "new", virtues: ["honor", "courage"] })).ok).toBe(true);
    const page = await questionWithAnswers(site.services.db, q);
    expect(page?.question).toMatchObject({ title: "Edited question title", virtues: ["courage", "honor"], edited: true });

    const helper = await member(site.services.db);
    const a = (await answer(site.services, q, { author: helper })).id;
    await acceptAnswer(site.services, asker, q, a);
    expect(await xpOf(helper)).toBe(XP["answer.posted"] + XP["answer.accepted"]);
    expect((await deleteAnswer(site.services, asker, a)).ok).toBe(false);
    expect((await deleteAnswer(site.services, helper, a)).ok).toBe(true);
    expect(await xpOf(helper)).toBe(0);
    const after = await questionWithAnswers(site.services.db, q);
    expect(after?.question.answers).toBe(0);
    expect(after?.answers[0].html).toBeNull();
  });

  it("stores the excerpt when a question is asked and edited, and pages read it from the column", async () => {
    const asker = await member(site.services.db, { xp: 100 });
    const asked = await askQuestion(site.services, asker, {
      title: "Where does patience come from?",
      body: "I lose it by **noon**. ![chart](/c.png) [Log](https://example.org/log)",
      virtues: ["compassion"],
      submissionKey: key(),
    });
    if (!asked.ok) throw new Error("ask");
    const q = asked.value.id;
    const stored = () => site.services.db.selectFrom("question").select("excerpt").where("id", "=", q).executeTakeFirstOrThrow();
    expect((await stored()).excerpt).toBe("I lose it by noon. chart Log");
    const edited = await editQuestion(site.services, asker, q, {
      title: "Where does patience come from?",
      body: `${"[".repeat(20_000)}`,
      virtues: ["compassion"],
    });
    expect(edited.ok).toBe(true);
    expect((await stored()).excerpt).toBe(`${"[".repeat(160)}…`);

    // A stored excerpt that no longer matches the body shows that no page makes its own from it.
    await site.services.db.updateTable("question").set({ excerpt: "Stored teaser" }).where("id", "=", q).execute();
    expect((await questionWithAnswers(site.services.db, q))!.question.excerpt).toBe("Stored teaser");
    expect((await questionSummaries(site.services.db, 50)).find((s) => s.id === q)!.excerpt).toBe("Stored teaser");
    const feed = await questionFeed(site.services.db, { virtue: "compassion" }, { kind: "first" });
    expect(feed.questions.find((s) => s.id === q)!.excerpt).toBe("Stored teaser");
  });

  it("lists unanswered questions and filters by virtue", async () => {
    const asker = await member(site.services.db, { xp: 100 });
    const q = (await question(site.services, { asker, virtues: ["resilience"] })).id;
    expect((await questionSummaries(site.services.db, 50, { unanswered: true })).map((s) => s.id)).toContain(q);
    expect((await questionSummaries(site.services.db, 50, { virtue: "resilience" })).map((s) => s.id)).toEqual([q]);
    await answer(site.services, q);
    expect((await questionSummaries(site.services.db, 50, { unanswered: true })).map((s) => s.id)).not.toContain(q);
  });

  it("counts one view per viewer per day, with visitors as a keyed hash of the address", async () => {
    const q = (await question(site.services, { asker: await member(site.services.db, { xp: 100 }) })).id;
    const viewer = await member(site.services.db);
    const secret = "test-secret-that-is-long-enough-0123456789";
    const day1 = new Date("2026-11-20T10:00:00Z");
    const visitor = viewerKey(secret, null, "203.0.113.9", day1);
    expect(visitor).not.toContain("203.0.113.9");
    expect(viewerKey(secret, null, "203.0.113.9", new Date("2026-11-21T10:00:00Z"))).not.toBe(visitor);
    expect(await recordView(site.services.db, q, visitor, day1)).toBe(true);
    expect(await recordView(site.services.db, q, visitor, day1)).toBe(false);
    expect(await recordView(site.services.db, q, viewerKey(secret, viewer, "x", day1), day1)).toBe(true);
    expect(await recordView(site.services.db, q, viewerKey(secret, viewer, "y", day1), day1)).toBe(false);
    expect(await recordView(site.services.db, q, viewerKey(secret, viewer, "x", day1), new Date("2026-11-21T01:00:00Z"))).toBe(true);
    const row = await site.services.db.selectFrom("question").select("view_count").where("id", "=", q).executeTakeFirstOrThrow();
    expect(Number(row.view_count)).toBe(3);
    const stored = await site.services.db.selectFrom("question_view").select("viewer_key").where("question_id", "=", q).execute();
    expect(stored.map((s) => s.viewer_key).join()).not.toContain("203.0.113.9");
  });

  it("grants and revokes advisors; their answers carry the verified mark", async () => {
    const advisor = await member(site.services.db, { xp: 500 });
    expect(await grantAdvisor(site.services.db, advisor.email, "warrior", "Kettlebells")).toBe(true);
    const q = (await question(site.services, { asker: await member(site.services.db, { xp: 100 }) })).id;
    await answer(site.services, q, { author: advisor });
    expect((await questionWithAnswers(site.services.db, q))?.answers[0].advisor).toEqual({ path: "warrior", specialty: "Kettlebells" });
    expect(await revokeAdvisor(site.services.db, advisor.email)).toBe(true);
    expect((await questionWithAnswers(site.services.db, q))?.answers[0].advisor).toBeNull();
    expect(await grantAdvisor(site.services.db, "nobody@example.org", "monk", "x")).toBe(false);
  });
});
