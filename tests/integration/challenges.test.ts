import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { challengePage, publishedChallenges, activeChallengesOf, proposedChallenges } from "~/.server/domain/challenges/challenge-read-model";
import { CHALLENGE_MESSAGES, checkIn, createChallenge, joinChallenge, proposeRankMessage, reviewProposal } from "~/.server/domain/challenges/challenge-service";
import { progressOf } from "~/.server/domain/progression/progression-service";
import { virtueLevelsFor } from "~/.server/domain/progression/virtue-levels";
import { ledgerXp } from "./ledger-xp";
import { rankById } from "~/lib/ranks";
import { XP } from "~/lib/xp";
import { challenge, member } from "../factories";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

const site = testSiteForFile();
const db = () => site.services.db;
const xpOf = async (m: Viewer) => ledgerXp(db(), m.id);
const statusOf = (o: { ok: boolean; status?: number }) => (o.ok ? 200 : o.status);
const messageOf = (o: { ok: boolean; errors?: Record<string, string> }) => (o.ok ? null : Object.values(o.errors!)[0]);
/** Noon UTC on a day of March 2026, then `hours` later. */
const at = (day: number, hours = 0) => new Date(Date.UTC(2026, 2, day, 12 + hours));
const inZone = async (zone: string) => {
  const m = await member(db());
  await db().updateTable("member").set({ time_zone: zone }).where("id", "=", m.id).execute();
  return m;
};

describe(`Challenges on ${ENGINE}`, () => {
  it("join, check in on successive days (1 XP a day), complete on the required check-in: 25 XP and the virtues advance", async () => {
    const m = await member(db());
    const c = await challenge(db(), { virtues: ["discipline", "courage"], lengthDays: 5, checkInsRequired: 3 });
    expect(statusOf(await joinChallenge(site.services, m, c.id, at(1)))).toBe(200);
    for (const day of [1, 2]) {
      const r = await checkIn(site.services, m, c.id, at(day));
      expect(r.ok && !r.value.completed).toBe(true);
    }
    expect(await xpOf(m)).toBe(2 * XP["challenge.check-in"]);
    expect((await virtueLevelsFor(db(), [m.id])).get(m.id)).toEqual({});
    const last = await checkIn(site.services, m, c.id, at(4));
    expect(last.ok && last.value).toMatchObject({ checkIns: 3, required: 3, completed: true });
    expect(await xpOf(m)).toBe(3 * XP["challenge.check-in"] + XP["challenge.completed"]);
    expect((await virtueLevelsFor(db(), [m.id])).get(m.id)).toEqual({ discipline: 1, courage: 1 });
    const page = await challengePage(db(), c.id, m, at(4));
    expect(page?.attempt).toMatchObject({ status: "completed", checkIns: 3, days: ["2026-03-01", "2026-03-02", "2026-03-04"] });
    expect(page?.attempt?.streaks).toEqual({ current: 3, best: 3 });
    expect(page?.challenge).toMatchObject({ completed: 1, members: 0, xpReward: 25 });
    // done: no second completion, no second join
    expect(messageOf(await checkIn(site.services, m, c.id, at(5)))).toBe(CHALLENGE_MESSAGES.alreadyCompleted);
    expect(messageOf(await joinChallenge(site.services, m, c.id, at(5)))).toBe(CHALLENGE_MESSAGES.alreadyCompleted);
  });

  it("a second check-in the same day is refused; check-in XP is paid once a day across challenges", async () => {
    const m = await member(db());
    const a = await challenge(db());
    const b = await challenge(db());
    await joinChallenge(site.services, m, a.id, at(1));
    await joinChallenge(site.services, m, b.id, at(1));
    expect(statusOf(await checkIn(site.services, m, a.id, at(1)))).toBe(200);
    const again = await checkIn(site.services, m, a.id, at(1, 3));
    expect(statusOf(again)).toBe(409);
    expect(messageOf(again)).toBe(CHALLENGE_MESSAGES.alreadyCheckedIn);
    expect(statusOf(await checkIn(site.services, m, b.id, at(1, 5)))).toBe(200);
    expect(await xpOf(m)).toBe(XP["challenge.check-in"]);
    expect(statusOf(await checkIn(site.services, m, b.id, at(2)))).toBe(200);
    expect(await xpOf(m)).toBe(2 * XP["challenge.check-in"]);
  });

  it("days are the member's own: at +14 (Kiritimati) and -11 (Pago Pago) midnight falls at different instants", async () => {
    const east = await inZone("Pacific/Kiritimati");
    const west = await inZone("Pacific/Pago_Pago");
    const c = await challenge(db(), { lengthDays: 10, checkInsRequired: 10 });
    // 09:30 UTC on March 1 is 23:30 on March 1 at +14, and 22:30 on February 28 at -11.
    const before = new Date(Date.UTC(2026, 2, 1, 9, 30));
    const after = new Date(Date.UTC(2026, 2, 1, 10, 30)); // 00:30 March 2 at +14; 23:30 Feb 28 at -11
    const afterWest = new Date(Date.UTC(2026, 2, 1, 11, 30)); // 00:30 March 1 at -11
    for (const m of [east, west]) await joinChallenge(site.services, m, c.id, before);
    const e1 = await checkIn(site.services, east, c.id, before);
    expect(e1.ok && e1.value.day).toBe("2026-03-01");
    const e2 = await checkIn(site.services, east, c.id, after);
    expect(e2.ok && e2.value.day).toBe("2026-03-02");
    const w1 = await checkIn(site.services, west, c.id, before);
    expect(w1.ok && w1.value.day).toBe("2026-02-28");
    expect(messageOf(await checkIn(site.services, west, c.id, after))).toBe(CHALLENGE_MESSAGES.alreadyCheckedIn);
    const w2 = await checkIn(site.services, west, c.id, afterWest);
    expect(w2.ok && w2.value.day).toBe("2026-03-01");
    expect(await xpOf(east)).toBe(2);
    expect(await xpOf(west)).toBe(2);
  });

  it("past the length unfinished the attempt fails, checking in is refused, and joining again starts over", async () => {
    const m = await member(db());
    const c = await challenge(db(), { lengthDays: 3, checkInsRequired: 3 });
    await joinChallenge(site.services, m, c.id, at(1));
    await checkIn(site.services, m, c.id, at(1));
    await checkIn(site.services, m, c.id, at(2));
    const late = await checkIn(site.services, m, c.id, at(4));
    expect(statusOf(late)).toBe(409);
    expect(messageOf(late)).toMatch(/^This attempt ran out on Mar 3, 2026/);
    expect(await xpOf(m)).toBe(2);
    expect((await challengePage(db(), c.id, m, at(4)))?.attempt?.status).toBe("failed");
    const again = await joinChallenge(site.services, m, c.id, at(4));
    expect(again.ok && again.value).toMatchObject({ startsOn: "2026-03-04", endsOn: "2026-03-06" });
    for (const day of [4, 5, 6]) expect(statusOf(await checkIn(site.services, m, c.id, at(day)))).toBe(200);
    expect((await challengePage(db(), c.id, m, at(6)))?.attempt?.status).toBe("completed");
    expect((await virtueLevelsFor(db(), [m.id])).get(m.id)).toEqual({ discipline: 1 });
  });

  it("an attempt that ran out without a check-in after it is shown failed and lets the member join again", async () => {
    const m = await member(db());
    const c = await challenge(db(), { lengthDays: 2, checkInsRequired: 2 });
    await joinChallenge(site.services, m, c.id, at(1));
    expect((await publishedChallenges(db(), m, at(5))).find((x) => x.id === c.id)?.yours).toBe("failed");
    expect(statusOf(await joinChallenge(site.services, m, c.id, at(5)))).toBe(200);
  });

  it("refuses: joining twice, checking in without joining, unknown and unpublished challenges", async () => {
    const m = await member(db());
    const c = await challenge(db());
    const proposed = await challenge(db(), { status: "proposed" });
    expect(messageOf(await checkIn(site.services, m, c.id, at(1)))).toBe(CHALLENGE_MESSAGES.notOn);
    expect(statusOf(await checkIn(site.services, m, c.id, at(1)))).toBe(403);
    await joinChallenge(site.services, m, c.id, at(1));
    const twice = await joinChallenge(site.services, m, c.id, at(2));
    expect(statusOf(twice)).toBe(409);
    expect(messageOf(twice)).toBe(CHALLENGE_MESSAGES.alreadyOn);
    expect(statusOf(await joinChallenge(site.services, m, 2_147_483_647, at(1)))).toBe(404);
    expect(statusOf(await joinChallenge(site.services, m, proposed.id, at(1)))).toBe(404);
    expect(statusOf(await checkIn(site.services, m, proposed.id, at(1)))).toBe(404);
  });

  it("50 parallel joins make one attempt; 50 parallel check-ins make one check-in and 1 XP", async () => {
    const m = await member(db());
    const c = await challenge(db(), { lengthDays: 3, checkInsRequired: 3 });
    const joins = await Promise.all(Array.from({ length: 50 }, () => joinChallenge(site.services, m, c.id, at(1))));
    expect(joins.filter((j) => j.ok)).toHaveLength(1);
    expect(joins.filter((j) => !j.ok).map(messageOf)).toEqual(Array(49).fill(CHALLENGE_MESSAGES.alreadyOn));
    const attempts = await db().selectFrom("challenge_attempt").select("id").where("challenge_id", "=", c.id).execute();
    expect(attempts).toHaveLength(1);
    const checks = await Promise.all(Array.from({ length: 50 }, () => checkIn(site.services, m, c.id, at(1))));
    expect(checks.filter((r) => r.ok)).toHaveLength(1);
    const rows = await db().selectFrom("challenge_check_in").select("day").where("attempt_id", "=", attempts[0].id).execute();
    expect(rows).toHaveLength(1);
    expect(await xpOf(m)).toBe(XP["challenge.check-in"]);
  });

  it("completion XP is paid once when the last check-in comes from 50 tabs at once", async () => {
    const m = await member(db());
    const c = await challenge(db(), { lengthDays: 2, checkInsRequired: 2 });
    await joinChallenge(site.services, m, c.id, at(1));
    await checkIn(site.services, m, c.id, at(1));
    const last = await Promise.all(Array.from({ length: 50 }, () => checkIn(site.services, m, c.id, at(2))));
    expect(last.filter((r) => r.ok && r.value.completed)).toHaveLength(1);
    expect(await xpOf(m)).toBe(2 * XP["challenge.check-in"] + XP["challenge.completed"]);
  });

  it("the dashboard lists running challenges with today's check-in and streak", async () => {
    const m = await member(db());
    const c = await challenge(db(), { title: "Dashboard challenge", lengthDays: 7, checkInsRequired: 5 });
    await joinChallenge(site.services, m, c.id, at(1));
    await checkIn(site.services, m, c.id, at(1));
    await checkIn(site.services, m, c.id, at(2));
    const active = await activeChallengesOf(db(), m.id, at(3));
    expect(active).toEqual([
      expect.objectContaining({ id: c.id, title: "Dashboard challenge", checkIns: 2, required: 5, checkedInToday: false, streak: 2, daysLeft: 5 }),
    ]);
    expect(await activeChallengesOf(db(), m.id, at(9))).toEqual([]);
  });

  it("members on it and completed counts", async () => {
    const c = await challenge(db(), { lengthDays: 1, checkInsRequired: 1 });
    const a = await member(db());
    const b = await member(db());
    await joinChallenge(site.services, a, c.id, at(1));
    await joinChallenge(site.services, b, c.id, at(1));
    await checkIn(site.services, b, c.id, at(1));
    const card = (await publishedChallenges(db(), null, at(1))).find((x) => x.id === c.id);
    expect(card).toMatchObject({ members: 1, completed: 1, yours: null });
  });
});

describe(`Creating and proposing challenges on ${ENGINE}`, () => {
  const input = (over: Partial<Parameters<typeof createChallenge>[2]> = {}) => ({
    title: "Thirty quiet mornings",
    description: "Sit in silence for ten minutes each morning before the day begins.",
    path: "monk" as const,
    virtues: ["wisdom" as const],
    lengthDays: 30,
    checkInsRequired: 25,
    submissionKey: crypto.randomUUID(),
    ...over,
  });

  it("below sage a proposal is refused with the rank it needs; a sage proposes; an advisor publishes it", async () => {
    const low = await member(db(), { xp: rankById("sage").minXp - 1 });
    const refused = await createChallenge(site.services, low, input());
    expect(statusOf(refused)).toBe(403);
    expect(messageOf(refused)).toBe(proposeRankMessage());
    expect(messageOf(refused)).toBe("Proposing challenges unlocks at the Sage rank (400 XP).");

    const sage = await member(db(), { xp: rankById("sage").minXp });
    const proposed = await createChallenge(site.services, sage, input({ title: "A proposal by a sage" }));
    expect(proposed.ok && proposed.value.status).toBe("proposed");
    const id = (proposed as { value: { id: number } }).value.id;
    expect((await publishedChallenges(db(), null)).some((c) => c.id === id)).toBe(false);
    expect((await proposedChallenges(db())).some((c) => c.id === id)).toBe(true);
    expect(statusOf(await joinChallenge(site.services, sage, id))).toBe(404);

    expect(statusOf(await reviewProposal(site.services, sage, id, "publish"))).toBe(403);
    const advisor = await member(db());
    await db().insertInto("advisor").values({ member_id: advisor.id, path: "monk", specialty: "Silence", granted_at: new Date().toISOString() }).execute();
    expect(statusOf(await reviewProposal(site.services, advisor, id, "publish"))).toBe(200);
    expect(statusOf(await reviewProposal(site.services, advisor, id, "decline"))).toBe(409);
    expect((await publishedChallenges(db(), null)).some((c) => c.id === id)).toBe(true);
    expect(statusOf(await reviewProposal(site.services, advisor, 2_147_483_647, "publish"))).toBe(404);
  });

  it("advisors and admins publish at once; a double submit makes one challenge", async () => {
    const admin = await member(db(), { role: "admin" });
    const same = input({ title: "Admin's challenge once" });
    const [a, b] = await Promise.all([createChallenge(site.services, admin, same), createChallenge(site.services, admin, same)]);
    expect(a.ok && b.ok && a.value.id === b.value.id && a.value.status === "published").toBe(true);
    const rows = await db().selectFrom("challenge").select("id").where("title", "=", "Admin's challenge once").execute();
    expect(rows).toHaveLength(1);
    const page = await challengePage(db(), rows[0].id, null);
    expect(page?.challenge.virtues).toEqual(["wisdom"]);
  });

  it("a completed challenge can lift a member to master when it brings the last virtue to level 2", async () => {
    const m = await member(db(), { xp: 3500 });
    // five virtues at level 2 from earlier challenges, honor at 1
    for (const virtue of ["discipline", "courage", "wisdom", "resilience", "compassion"] as const) {
      for (let i = 0; i < 3; i++) {
        const c = await challenge(db(), { virtues: [virtue], lengthDays: 1, checkInsRequired: 1 });
        await joinChallenge(site.services, m, c.id, at(1));
        await checkIn(site.services, m, c.id, at(1));
      }
    }
    for (let i = 0; i < 2; i++) {
      const c = await challenge(db(), { virtues: ["honor"], lengthDays: 1, checkInsRequired: 1 });
      await joinChallenge(site.services, m, c.id, at(2));
      await checkIn(site.services, m, c.id, at(2));
    }
    expect((await progressOf(db(), m.id)).rank.id).toBe("warlord");
    const last = await challenge(db(), { virtues: ["honor"], lengthDays: 1, checkInsRequired: 1 });
    await joinChallenge(site.services, m, last.id, at(3));
    await checkIn(site.services, m, last.id, at(3));
    expect((await progressOf(db(), m.id)).rank.id).toBe("master");
  });
});
