import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { checkIn, joinChallenge } from "~/.server/domain/challenges/challenge-service";
import { checkInReminderJob, remindCheckIns } from "~/.server/domain/notifications/check-in-reminders";
import { sendDueDigests } from "~/.server/domain/notifications/digest";
import { markAllRead, saveNotificationSettings } from "~/.server/domain/notifications/notification-service";
import { attempt, challenge, member as newMember } from "../factories";
import { createTestSite, ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

/**
 * "A challenge you are on needs today's check-in" (issue 28): from 18:00 on the member's own clock,
 * once per attempt and local day (read or not), never after that day's check-in, never when the
 * member turned the kind off, in bounded batches, once across instances; and the digest never mails
 * a reminder of a day already checked in.
 */

const site = testSiteForFile();
const db = () => site.services.db;

/** Summer dates: Berlin is UTC+2, New York UTC−4. */
const at = (iso: string) => new Date(iso);

/** A member on their own clock. The zone is a column of the member's row, as the factory writes members. */
async function memberIn(timeZone: string) {
  const viewer = await newMember(db());
  await db().updateTable("member").set({ time_zone: timeZone }).where("id", "=", viewer.id).execute();
  return viewer;
}

async function joined(viewer: Viewer, when: Date, overrides: { lengthDays?: number } = {}) {
  const lengths = overrides.lengthDays ? { lengthDays: overrides.lengthDays, checkInsRequired: overrides.lengthDays } : {};
  const c = await challenge(db(), { title: `Evening breath ${viewer.id}`, ...lengths });
  const joinedIt = await joinChallenge(site.services, viewer, c.id, when);
  if (!joinedIt.ok) throw new Error(JSON.stringify(joinedIt));
  return { challengeId: c.id, attemptId: joinedIt.value.attemptId, title: `Evening breath ${viewer.id}` };
}

async function remindersOf(viewer: Viewer) {
  return db()
    .selectFrom("notification")
    .select(["kind", "subject", "parent", "title", "url", "group_key", "others", "actor_id", "read_at"])
    .where("member_id", "=", viewer.id)
    .where("kind", "=", "check_in")
    .orderBy("id")
    .execute();
}

describe(`check-in reminders on ${ENGINE}`, () => {
  it("come once per local day from 18:00, even when the day's line was read, and again the next evening", async () => {
    const m = await memberIn("Europe/Berlin");
    const c = await joined(m, at("2030-06-12T08:00:00Z"));
    await remindCheckIns(db(), at("2030-06-12T15:59:00Z"));
    expect(await remindersOf(m)).toEqual([]);

    await remindCheckIns(db(), at("2030-06-12T16:00:00Z"));
    expect(await remindersOf(m)).toEqual([
      {
        kind: "check_in",
        subject: `challenge:${c.challengeId}`,
        parent: null,
        title: c.title,
        url: `/challenges/${c.challengeId}`,
        group_key: `check_in:${c.attemptId}:2030-06-12`,
        others: 0,
        actor_id: null,
        read_at: null,
      },
    ]);
    await remindCheckIns(db(), at("2030-06-12T16:30:00Z"));
    await markAllRead(site.services, m, at("2030-06-12T16:40:00Z"));
    await remindCheckIns(db(), at("2030-06-12T20:00:00Z"));
    // 00:30 on the 13th in Berlin: a new day, but not yet its evening.
    await remindCheckIns(db(), at("2030-06-12T22:30:00Z"));
    expect(await remindersOf(m)).toHaveLength(1);

    await remindCheckIns(db(), at("2030-06-13T16:05:00Z"));
    const lines = await remindersOf(m);
    expect(lines.map((l) => [l.group_key, l.read_at === null])).toEqual([
      [`check_in:${c.attemptId}:2030-06-12`, false],
      [`check_in:${c.attemptId}:2030-06-13`, true],
    ]);
  });

  it("are not written once the day is checked in", async () => {
    const m = await memberIn("Europe/Berlin");
    const c = await joined(m, at("2030-06-12T08:00:00Z"));
    expect((await checkIn(site.services, m, c.challengeId, at("2030-06-12T15:00:00Z"))).ok).toBe(true);
    await remindCheckIns(db(), at("2030-06-12T17:00:00Z"));
    expect(await remindersOf(m)).toEqual([]);
    await remindCheckIns(db(), at("2030-06-13T16:30:00Z"));
    expect((await remindersOf(m)).map((l) => l.group_key)).toEqual([`check_in:${c.attemptId}:2030-06-13`]);
  });

  it("follow each member's own clock", async () => {
    const berlin = await memberIn("Europe/Berlin");
    const newYork = await memberIn("America/New_York");
    await joined(berlin, at("2030-06-12T08:00:00Z"));
    await joined(newYork, at("2030-06-12T14:00:00Z"));
    // 18:30 in Berlin, 12:30 in New York.
    await remindCheckIns(db(), at("2030-06-12T16:30:00Z"));
    expect(await remindersOf(berlin)).toHaveLength(1);
    expect(await remindersOf(newYork)).toEqual([]);
    // 18:00 in New York, 00:00 on the 13th in Berlin (a new day, not yet its evening).
    await remindCheckIns(db(), at("2030-06-12T22:00:00Z"));
    expect((await remindersOf(newYork)).map((l) => l.group_key?.endsWith(":2030-06-12"))).toEqual([true]);
    expect(await remindersOf(berlin)).toHaveLength(1);
  });

  it("respect the member's check-in setting", async () => {
    const m = await memberIn("Europe/Berlin");
    await saveNotificationSettings(site.services, m, [{ kind: "check_in", inSite: false, byMail: true }]);
    await joined(m, at("2030-06-12T08:00:00Z"));
    await remindCheckIns(db(), at("2030-06-12T17:00:00Z"));
    expect(await remindersOf(m)).toEqual([]);
  });

  it("are not written for an attempt past its last day, completed or failed", async () => {
    const m = await memberIn("Europe/Berlin");
    await joined(m, at("2030-06-12T08:00:00Z"), { lengthDays: 1 });
    const done = await challenge(db());
    await attempt(db(), m.id, done.id, { startsOn: "2030-06-10", endsOn: "2030-06-20", days: ["2030-06-10"], status: "completed" });
    const given = await challenge(db());
    await attempt(db(), m.id, given.id, { startsOn: "2030-06-10", endsOn: "2030-06-20", status: "failed" });
    await remindCheckIns(db(), at("2030-06-13T17:00:00Z"));
    expect(await remindersOf(m)).toEqual([]);
  });

  it("two instances at once write one line, not a line with one 'other'", async () => {
    const m = await memberIn("Europe/Berlin");
    await joined(m, at("2030-06-12T08:00:00Z"));
    // On SQLite one process holds one connection (a second would wait for the first synchronously,
    // holding up the first): two runs at once on it, as two overlapping ticks would be.
    const second = ENGINE === "postgres" ? await site.another() : site;
    try {
      const when = at("2030-06-12T17:00:00Z");
      await Promise.all([remindCheckIns(db(), when), remindCheckIns(second.services.db, when)]);
    } finally {
      if (second !== site) await second.close();
    }
    expect((await remindersOf(m)).map((l) => l.others)).toEqual([0]);
  });

  it("are worked through in bounded batches, one per tick, from the start again after a short one", async () => {
    const own = await createTestSite();
    try {
      const members = [];
      for (let i = 0; i < 3; i++) {
        const m = await newMember(own.services.db);
        const c = await challenge(own.services.db);
        expect((await joinChallenge(own.services, m, c.id, at("2030-06-12T08:00:00Z"))).ok).toBe(true);
        members.push(m);
      }
      const evening = at("2030-06-12T19:00:00Z");
      expect(await remindCheckIns(own.services.db, evening, { limit: 2 })).toMatchObject({ reminded: 2, seen: 2 });
      const job = checkInReminderJob(2);
      // Its first batch finds those two reminded already; the second (short) one reminds the third.
      expect(await job(own.services.db, evening)).toBe(0);
      expect(await job(own.services.db, evening)).toBe(1);
      expect(await job(own.services.db, evening)).toBe(0);
      const told = await own.services.db.selectFrom("notification").select("member_id").where("kind", "=", "check_in").execute();
      expect(told.map((t) => t.member_id).sort()).toEqual(members.map((m) => m.id).sort());
    } finally {
      await own.destroy();
    }
  });

  it("ring the reminded member's bell after the commit, on the pages they have open", async () => {
    const m = await memberIn("Europe/Berlin");
    await joined(m, at("2030-06-12T08:00:00Z"));
    const heard: unknown[] = [];
    const stop = site.services.live.subscribe(`member:${m.id}`, (event) => heard.push(event));
    try {
      // As the outbox worker runs it: with the services. The count is read after the commit.
      await checkInReminderJob()(db(), at("2030-06-12T16:30:00Z"), site.services);
      expect(heard).toEqual([{ type: "bell", unread: 1 }]);
      // A tick that reminds nobody rings nothing.
      await checkInReminderJob()(db(), at("2030-06-12T16:40:00Z"), site.services);
      expect(heard).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it("a check-in settles the day's reminder, in the check-in's own transaction", async () => {
    const m = await memberIn("Europe/Berlin");
    const c = await joined(m, at("2030-06-12T08:00:00Z"));
    await remindCheckIns(db(), at("2030-06-12T16:10:00Z"));
    expect((await remindersOf(m)).map((l) => l.read_at !== null)).toEqual([false]);
    expect((await checkIn(site.services, m, c.challengeId, at("2030-06-12T16:20:00Z"))).ok).toBe(true);
    expect((await remindersOf(m)).map((l) => l.read_at !== null)).toEqual([true]);
  });

  it("the digest mails a reminder still due and never one of a day already checked in", async () => {
    const links = { baseUrl: site.services.env.BASE_URL, secret: site.services.env.AUTH_SECRET };
    const due = await memberIn("Europe/Berlin");
    const done = await memberIn("Europe/Berlin");
    const c = await joined(due, at("2030-06-12T08:00:00Z"));
    const d = await joined(done, at("2030-06-12T08:00:00Z"));
    await remindCheckIns(db(), at("2030-06-12T16:00:00Z"));
    expect((await checkIn(site.services, done, d.challengeId, at("2030-06-12T16:30:00Z"))).ok).toBe(true);
    await sendDueDigests(db(), at("2030-06-12T17:30:00Z"), links);
    const mails = await db()
      .selectFrom("mail_outbox")
      .select(["to_address", "text_body"])
      .where("kind", "=", "notification-digest")
      .where("to_address", "in", [due.email, done.email])
      .execute();
    expect(mails.map((mail) => mail.to_address)).toEqual([due.email]);
    expect(mails[0]!.text_body).toContain(`- "${c.title}" needs today's check-in\n  http://localhost:3000/challenges/${c.challengeId}`);
    expect(mails[0]!.text_body).toContain("Stop mail about today's check-in for your challenges: http://localhost:3000/notifications/unsubscribe?token=");
  });
});
