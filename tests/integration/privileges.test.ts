import { describe, expect, it } from "vitest";
import { checkIn, createChallenge, joinChallenge } from "~/.server/domain/challenges/challenge-service";
import { answerQuestion, askQuestion, setHelpful } from "~/.server/domain/council/council-service";
import { createTopic, postReply } from "~/.server/domain/forum/forum-service";
import { rankById } from "~/lib/ranks";
import { answer, challenge, discussion, member, question } from "../factories";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

// Issue 11, item 4: each privilege is enforced by the service where the action happens, whatever
// the page showed, and each refusal names the rank it needs. Ranks come from the one rank function.

const site = testSiteForFile();
const refusal = (o: { ok: boolean; status?: number; errors?: Record<string, string> }) =>
  o.ok ? null : { status: o.status, message: Object.values(o.errors!)[0] };
const key = () => crypto.randomUUID();
const justBelow = (rank: "acolyte" | "disciple" | "sage") => rankById(rank).minXp - 1;

describe(`privileges by rank, on the server, on ${ENGINE}`, () => {
  it("an initiate replies, asks, answers and checks in", async () => {
    const s = site.services;
    const initiate = await member(s.db);
    const d = await discussion(s);
    expect((await postReply(s, initiate, d.id, { body: "A reply", submissionKey: key() })).ok).toBe(true);
    const asked = await askQuestion(s, initiate, { title: "An initiate's question", body: "x", virtues: ["wisdom"], submissionKey: key() });
    expect(asked.ok).toBe(true);
    const q = await question(s);
    expect((await answerQuestion(s, initiate, q.id, { body: "An answer", submissionKey: key() })).ok).toBe(true);
    const c = await challenge(s.db);
    await joinChallenge(s, initiate, c.id);
    expect((await checkIn(s, initiate, c.id)).ok).toBe(true);
  });

  it("helpful votes from acolyte: below it refused with the rank named", async () => {
    const s = site.services;
    const q = await question(s);
    const a = await answer(s, q.id);
    const below = await member(s.db, { xp: justBelow("acolyte") });
    expect(refusal(await setHelpful(s, below, a.id, true))).toEqual({ status: 403, message: "Marking answers helpful unlocks at the Acolyte rank (50 XP)." });
    const acolyte = await member(s.db, { xp: rankById("acolyte").minXp });
    expect((await setHelpful(s, acolyte, a.id, true)).ok).toBe(true);
  });

  it("topics from disciple: below it refused with the rank named", async () => {
    const s = site.services;
    const below = await member(s.db, { xp: justBelow("disciple") });
    const input = { title: "A privileged topic", description: "Only disciples and above create topics." };
    expect(refusal(await createTopic(s, below, "monastery", input))).toEqual({
      status: 403,
      message: "Creating topics unlocks at the Disciple rank (150 XP).",
    });
    const disciple = await member(s.db, { xp: rankById("disciple").minXp });
    expect((await createTopic(s, disciple, "monastery", input)).ok).toBe(true);
  });

  it("challenge proposals from sage: below it refused with the rank named", async () => {
    const s = site.services;
    const input = {
      title: "A proposal for the privileges test",
      description: "Twenty slow breaths before each meal, for a week.",
      path: "monk" as const,
      virtues: ["discipline" as const],
      lengthDays: 7,
      checkInsRequired: 6,
    };
    const below = await member(s.db, { xp: justBelow("sage") });
    expect(refusal(await createChallenge(s, below, { ...input, submissionKey: key() }))).toEqual({
      status: 403,
      message: "Proposing challenges unlocks at the Sage rank (400 XP).",
    });
    const sage = await member(s.db, { xp: rankById("sage").minXp });
    const proposed = await createChallenge(s, sage, { ...input, submissionKey: key() });
    expect(proposed.ok && proposed.value.status).toBe("proposed");
  });
});
