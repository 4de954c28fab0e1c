import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { calendarFile, eventUid } from "~/.server/domain/events/event-calendar";
import { eventLists, eventPage, feedEvents } from "~/.server/domain/events/event-read-model";
import { findEvent } from "~/.server/domain/events/event-repository";
import {
  cancelEvent,
  createEvent,
  editEvent,
  HOSTS_ONLY_MESSAGE,
  EVENT_CANCELLED_MESSAGE,
  EVENT_STARTED_MESSAGE,
  FORMER_HOST_MESSAGE,
  rsvp,
  type EventInput,
} from "~/.server/domain/events/event-service";
import { enqueueDueReminders } from "~/.server/domain/events/reminders";
import { WRITE_LIMIT } from "~/lib/limits";
import { advisor, event, member } from "../factories";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

const site = testSiteForFile();
const HOUR = 60 * 60 * 1000;
const BASE = "http://localhost:3000";
const key = () => crypto.randomUUID();

const mailsTo = (to: string) =>
  site.services.db
    .selectFrom("mail_outbox")
    .select(["kind", "subject", "text_body", "html_body", "dedupe_key"])
    .where("to_address", "=", to)
    .orderBy("id")
    .execute();

function input(overrides: Partial<EventInput> = {}, now = new Date()): EventInput & { submissionKey: string } {
  const startsAt = new Date(now.getTime() + 72 * HOUR);
  return {
    title: "Trail run at dawn",
    description: "Ten kilometres at a talking pace.",
    path: "warrior",
    startsAt,
    endsAt: new Date(startsAt.getTime() + 2 * HOUR),
    timeZone: "America/New_York",
    onlineUrl: null,
    place: "Prospect Park boathouse",
    capacity: 12,
    submissionKey: key(),
    ...overrides,
  };
}

describe(`events on ${ENGINE}`, () => {
  it("advisors and admins create events; a member gets 403 naming who may", async () => {
    const plain = await member(site.services.db, { xp: 5000 });
    const refused = await createEvent(site.services, plain, input());
    expect(refused).toEqual({ ok: false, status: 403, errors: { form: HOSTS_ONLY_MESSAGE } });
    expect(HOSTS_ONLY_MESSAGE).toBe("Only advisors and admins can create events.");

    const host = await advisor(site.services);
    const admin = await member(site.services.db, { role: "admin" });
    const byAdvisor = await createEvent(site.services, host, input());
    const byAdmin = await createEvent(site.services, admin, input());
    expect(byAdvisor.ok && byAdmin.ok).toBe(true);
  });

  it("refuses an end before the start and a start in the past, and saves nothing", async () => {
    const host = await advisor(site.services);
    const now = new Date();
    const before = await site.services.db
      .selectFrom("event")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const backwards = await createEvent(site.services, host, input({ endsAt: new Date(now.getTime() + 71 * HOUR) }, now), now);
    expect(backwards).toEqual({ ok: false, status: 400, errors: { endsAt: "The end must be after the start" } });
    const past = await createEvent(site.services, host, input({ startsAt: new Date(now.getTime() - HOUR), endsAt: new Date(now.getTime() + HOUR) }, now), now);
    expect(past.ok ? 200 : past.status).toBe(400);
    const after = await site.services.db
      .selectFrom("event")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("a host who is no longer an advisor cannot edit or cancel; an admin can", async () => {
    const host = await advisor(site.services);
    const { id } = await event(site.services, { host });
    const current = (await findEvent(site.services.db, id))!;
    const values: EventInput = {
      title: "Renamed after the role went",
      description: current.description,
      path: current.path,
      startsAt: new Date(current.starts_at),
      endsAt: new Date(current.ends_at),
      timeZone: current.time_zone,
      onlineUrl: null,
      place: current.place,
      capacity: current.capacity,
    };
    await site.services.db.deleteFrom("advisor").where("member_id", "=", host.id).execute();
    expect(await editEvent(site.services, host, id, values)).toMatchObject({ ok: false, status: 403, errors: { form: FORMER_HOST_MESSAGE } });
    expect(await cancelEvent(site.services, host, id)).toMatchObject({ ok: false, status: 403 });
    expect((await findEvent(site.services.db, id))?.title).toBe(current.title);
    const admin = await member(site.services.db, { role: "admin" });
    expect((await editEvent(site.services, admin, id, values)).ok).toBe(true);
  });

  it("a double submit makes one event", async () => {
    const host = await advisor(site.services);
    const same = input();
    const [a, b] = await Promise.all([createEvent(site.services, host, same), createEvent(site.services, host, same)]);
    expect(a.ok && b.ok && a.value.id === b.value.id).toBe(true);
  });

  it("fills places, then waitlists in order; a cancellation moves the first up and queues their mail", async () => {
    const { id } = await event(site.services, { capacity: 2 });
    const [first, second, third, fourth] = await Promise.all([1, 2, 3, 4].map(() => member(site.services.db)));
    expect(await rsvp(site.services, first, id, "going")).toEqual({ ok: true, value: { status: "going", waitlistPosition: null } });
    expect(await rsvp(site.services, second, id, "going")).toEqual({ ok: true, value: { status: "going", waitlistPosition: null } });
    expect(await rsvp(site.services, third, id, "going")).toEqual({ ok: true, value: { status: "waitlisted", waitlistPosition: 1 } });
    expect(await rsvp(site.services, fourth, id, "going")).toEqual({ ok: true, value: { status: "waitlisted", waitlistPosition: 2 } });
    // Asking again changes nothing, and keeps one's place in the queue.
    expect(await rsvp(site.services, third, id, "going")).toEqual({ ok: true, value: { status: "waitlisted", waitlistPosition: 1 } });

    let page = await eventPage(site.services.db, id, fourth);
    expect(page?.going.map((g) => g.name)).toEqual([first.name, second.name]);
    expect(page?.placesLeft).toBe(0);
    expect(page?.waitlistLength).toBe(2);
    expect(page?.mine).toEqual({ status: "waitlisted", waitlistPosition: 2 });
    expect(await mailsTo(third.email)).toEqual([]);

    // The promoted member reads the time in their own zone, with the event's beside it.
    await site.services.db.updateTable("member").set({ time_zone: "America/New_York" }).where("id", "=", third.id).execute();
    expect((await rsvp(site.services, second, id, "not_going")).ok).toBe(true);
    page = await eventPage(site.services.db, id, fourth);
    expect(page?.going.map((g) => g.name)).toEqual([first.name, third.name]);
    expect(page?.mine).toEqual({ status: "waitlisted", waitlistPosition: 1 });
    const mails = await mailsTo(third.email);
    expect(mails.map((m) => m.kind)).toEqual(["event-promoted"]);
    expect(mails[0].subject).toBe("A place opened: you are going to Morning sit in the park");
    expect(mails[0].text_body).toContain(`${BASE}/events/${id}`);
    expect(mails[0].text_body).toMatch(/When: .+ \(.+ where it is held\)/);
    expect(await mailsTo(fourth.email)).toEqual([]);

    // Leaving the waitlist frees no place and moves nobody.
    expect((await rsvp(site.services, fourth, id, "not_going")).ok).toBe(true);
    page = await eventPage(site.services.db, id, fourth);
    expect(page?.waitlistLength).toBe(0);
    expect(page?.going).toHaveLength(2);
  });

  it("refuses RSVPs to a cancelled or started event and to a missing one; going members hear of a cancellation", async () => {
    const now = new Date();
    const { id, host } = await event(site.services, { now });
    const goer = await member(site.services.db);
    expect((await rsvp(site.services, goer, id, "going", now)).ok).toBe(true);
    const stranger = await member(site.services.db);
    const notHost = await cancelEvent(site.services, stranger, id);
    expect(notHost.ok ? 200 : notHost.status).toBe(403);
    expect((await cancelEvent(site.services, host, id)).ok).toBe(true);
    expect((await mailsTo(goer.email)).map((m) => m.kind)).toEqual(["event-cancelled"]);
    const late = await rsvp(site.services, await member(site.services.db), id, "going");
    expect(late).toEqual({ ok: false, status: 409, errors: { form: EVENT_CANCELLED_MESSAGE } });

    const started = await event(site.services, { now });
    const inThreeDays = new Date(now.getTime() + 72 * HOUR);
    const tooLate = await rsvp(site.services, goer, started.id, "going", inThreeDays);
    expect(tooLate).toEqual({ ok: false, status: 409, errors: { form: EVENT_STARTED_MESSAGE } });
    const missing = await rsvp(site.services, goer, 2_147_483_647, "going");
    expect(missing.ok ? 200 : missing.status).toBe(404);
    expect((await findEvent(site.services.db, started.id))?.cancelled_at).toBeNull();
  });

  it("edits: not below the members going; more places move the waitlist up; going members are mailed", async () => {
    const { id, host } = await event(site.services, { capacity: 1 });
    const a = await member(site.services.db);
    const b = await member(site.services.db);
    await rsvp(site.services, a, id, "going");
    await rsvp(site.services, b, id, "going");
    const current = await findEvent(site.services.db, id);
    const values: EventInput = {
      title: current!.title,
      description: current!.description,
      path: current!.path,
      startsAt: new Date(current!.starts_at),
      endsAt: new Date(current!.ends_at),
      timeZone: current!.time_zone,
      onlineUrl: "https://meet.example.org/sit",
      place: null,
      capacity: 0,
    };
    const below = await editEvent(site.services, host, id, values);
    expect(below.ok ? 200 : below.status).toBe(409);
    const other = await editEvent(site.services, await advisor(site.services), id, { ...values, capacity: 5 });
    expect(other.ok ? 200 : other.status).toBe(403);
    expect((await editEvent(site.services, host, id, { ...values, capacity: 2 })).ok).toBe(true);
    expect((await mailsTo(a.email)).map((m) => m.kind)).toEqual(["event-changed"]);
    expect((await mailsTo(b.email)).map((m) => m.kind)).toEqual(["event-promoted"]);
    const page = await eventPage(site.services.db, id, null);
    expect(page?.going).toHaveLength(2);
    expect(page?.onlineUrl).toBe("https://meet.example.org/sit");
  });

  it("50 simultaneous RSVPs for 10 places: exactly 10 going, 40 waitlisted in order 1 to 40", async () => {
    const { id } = await event(site.services, { capacity: 10 });
    const members = await Promise.all(Array.from({ length: 50 }, () => member(site.services.db)));
    const results = await Promise.all(members.map((m) => rsvp(site.services, m, id, "going")));
    expect(results.every((r) => r.ok)).toBe(true);
    const rows = await site.services.db.selectFrom("event_rsvp").select(["status", "waitlist_position"]).where("event_id", "=", id).execute();
    expect(rows.filter((r) => r.status === "going")).toHaveLength(10);
    const positions = rows
      .filter((r) => r.status === "waitlisted")
      .map((r) => Number(r.waitlist_position))
      .sort((x, y) => x - y);
    expect(positions).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // The answers each member got agree with what was stored.
    const told = results
      .map((r) => (r.ok ? r.value.waitlistPosition : null))
      .filter((p) => p !== null)
      .sort((x, y) => x! - y!);
    expect(told).toEqual(positions);
  });

  it("lists upcoming events in start order and keeps past ones readable", async () => {
    const now = new Date(Date.now() + 1000 * 24 * HOUR); // far ahead, past every other test's events
    const later = await event(site.services, { now, title: "Later upcoming event", startsAt: new Date(now.getTime() + 50 * HOUR) });
    const sooner = await event(site.services, { now, title: "Sooner upcoming event", startsAt: new Date(now.getTime() + 5 * HOUR) });
    const viewerLater = new Date(now.getTime() + 10 * HOUR);
    const lists = await eventLists(site.services.db, null, viewerLater);
    const ours = (ids: number[]) => ids.filter((x) => x === later.id || x === sooner.id);
    expect(ours(lists.upcoming.map((e) => e.id))).toEqual([later.id]);
    expect(ours(lists.past.map((e) => e.id))).toEqual([sooner.id]);
    expect((await eventPage(site.services.db, sooner.id, null, viewerLater))?.ended).toBe(true);
  });
});

describe(`RSVP abuse on ${ENGINE}`, () => {
  it("a member toggling an RSVP over and over meets the write limit (429), and the last answer stands", async () => {
    const { id } = await event(site.services, { capacity: 1 });
    const toggler = await member(site.services.db);
    let limited = 0;
    for (let i = 0; i < WRITE_LIMIT.max + 2; i++) {
      const result = await rsvp(site.services, toggler, id, i % 2 === 0 ? "going" : "not_going");
      if (!result.ok) {
        expect(result.status).toBe(429);
        limited += 1;
      }
    }
    expect(limited).toBe(2);
    const page = await eventPage(site.services.db, id, toggler);
    expect(page?.mine?.status).toBe("not_going");
  });
});

describe(`reminders on ${ENGINE}`, () => {
  it("queues one reminder per going member for events starting within 24 hours, once", async () => {
    const now = new Date(Date.now() + 2000 * 24 * HOUR);
    const soon = await event(site.services, { now, startsAt: new Date(now.getTime() + 23 * HOUR), capacity: 1 });
    const far = await event(site.services, { now, startsAt: new Date(now.getTime() + 25 * HOUR) });
    const cancelled = await event(site.services, { now, startsAt: new Date(now.getTime() + 2 * HOUR) });
    const going = await member(site.services.db);
    const waiting = await member(site.services.db);
    const atCreate = new Date(now.getTime() - HOUR);
    for (const [m, e] of [
      [going, soon],
      [waiting, soon],
      [going, far],
      [going, cancelled],
    ] as const)
      await rsvp(site.services, m, e.id, "going", atCreate);
    await cancelEvent(site.services, cancelled.host, cancelled.id, atCreate);

    expect(await enqueueDueReminders(site.services.db, now, BASE)).toBe(1);
    expect(await enqueueDueReminders(site.services.db, now, BASE)).toBe(0);
    const reminders = (await mailsTo(going.email)).filter((m) => m.kind === "event-reminder");
    expect(reminders).toHaveLength(1);
    expect(reminders[0].dedupe_key).toBe(`event-reminder:${soon.id}:${going.id}`);
    expect(reminders[0].subject).toBe("Tomorrow: Morning sit in the park");
    expect((await mailsTo(waiting.email)).filter((m) => m.kind === "event-reminder")).toEqual([]);

    // Two hours on, the far event is within a day: its reminder goes out; the first is not repeated.
    expect(await enqueueDueReminders(site.services.db, new Date(now.getTime() + 2 * HOUR), BASE)).toBe(1);
    // Once an event has started, no reminder is queued for it any more.
    const started = await event(site.services, { now, startsAt: new Date(now.getTime() + 30 * HOUR) });
    await rsvp(site.services, waiting, started.id, "going", atCreate);
    expect(await enqueueDueReminders(site.services.db, new Date(now.getTime() + 31 * HOUR), BASE)).toBe(0);
  });

  it("strips CR and LF from a title that reaches a subject, and escapes HTML in the mail", async () => {
    const now = new Date(Date.now() + 3000 * 24 * HOUR);
    const soon = await event(site.services, { now, startsAt: new Date(now.getTime() + 3 * HOUR) });
    // The form refuses line breaks; a row written another way must still not inject headers.
    await site.services.db.updateTable("event").set({ title: "Sit\r\nBcc: victim@example.org <b>" }).where("id", "=", soon.id).execute();
    const goer = await member(site.services.db);
    await rsvp(site.services, goer, soon.id, "going", new Date(now.getTime() - HOUR));
    expect(await enqueueDueReminders(site.services.db, now, BASE)).toBe(1);
    const [mail] = await mailsTo(goer.email);
    expect(mail.subject).toBe("Tomorrow: Sit Bcc: victim@example.org <b>");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html_body).toContain("Sit Bcc: victim@example.org &lt;b&gt;");
  });
});

describe(`calendar files on ${ENGINE}`, () => {
  /**
   * An event from 16:00 to 17:00 UTC on a day of June 2030 whose texts are then written as stored text
   * can hold them, past the form: the calendar is the boundary that must hold. Its row as read back.
   */
  async function eventStoredWith(day: number, texts: { title: string; description: string; place: string }) {
    const { id } = await event(site.services, {
      now: new Date("2030-05-01T00:00:00Z"),
      startsAt: new Date(`2030-06-0${day}T16:00:00Z`),
      endsAt: new Date(`2030-06-0${day}T17:00:00Z`),
    });
    await site.services.db.updateTable("event").set(texts).where("id", "=", id).execute();
    return (await findEvent(site.services.db, id))!;
  }

  it("parse as RFC 5545 with a stable UID, UTC times and escaped text", async () => {
    const { id } = await event(site.services, {
      startsAt: new Date("2030-06-01T16:00:00Z"),
      endsAt: new Date("2030-06-01T17:30:00Z"),
      description: "Bring water; a mat, and a friend.\nLine two \\ backslash",
      place: "Hall 3, Floor 2; Room B",
      now: new Date("2030-05-01T00:00:00Z"),
    });
    await site.services.db.updateTable("event").set({ title: "Evil\r\nBEGIN:VEVENT\r\nSUMMARY:Injected" }).where("id", "=", id).execute();
    const row = await findEvent(site.services.db, id);
    const first = calendarFile(BASE, [row!]);
    const second = calendarFile(BASE, [row!]);
    expect(first.startsWith("BEGIN:VCALENDAR")).toBe(true);
    expect(first).toMatch(/DTSTART:20300601T160000Z/);

    const parse = (text: string) => new ICAL.Component(ICAL.parse(text));
    const calendar = parse(first);
    expect(calendar.name).toBe("vcalendar");
    const vevents = calendar.getAllSubcomponents("vevent");
    expect(vevents).toHaveLength(1);
    const vevent = new ICAL.Event(vevents[0]);
    expect(vevent.uid).toBe(eventUid(BASE, id));
    expect(new ICAL.Event(parse(second).getFirstSubcomponent("vevent")!).uid).toBe(vevent.uid);
    expect(vevent.startDate.toJSDate().toISOString()).toBe("2030-06-01T16:00:00.000Z");
    expect(vevent.startDate.zone?.tzid).toBe("UTC");
    expect(vevent.endDate.toJSDate().toISOString()).toBe("2030-06-01T17:30:00.000Z");
    expect(vevent.summary).toBe("Evil\r\nBEGIN:VEVENT\r\nSUMMARY:Injected".replace(/\r\n/g, "\n").replace(/\r/g, ""));
    expect(vevent.location).toBe("Hall 3, Floor 2; Room B");
    expect(vevent.description).toContain("Bring water; a mat, and a friend.\nLine two \\ backslash");
  });

  it("carry no control character in a TEXT value: a lone CR is a line break, the rest are dropped", async () => {
    const stored = await eventStoredWith(2, {
      title: "Sit\u0007 still\rX-INJECTED:1",
      description: "Breathe in.\rBreathe out.\u001b[31m\u0085\u2028Rest.",
      place: "Hall\r3\u0001",
    });
    const file = calendarFile(BASE, [stored], "Events\r");
    // Every CR ends a line (CRLF); no other control character but the tab is left anywhere.
    expect(file).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
    // eslint-disable-next-line no-control-regex -- control characters are what the file must not hold
    expect(file.replaceAll("\r\n", "")).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/);
    expect(file).not.toMatch(/^X-INJECTED/m);
    const vevent = new ICAL.Event(new ICAL.Component(ICAL.parse(file)).getFirstSubcomponent("vevent")!);
    expect(vevent.summary).toBe("Sit still\nX-INJECTED:1");
    expect(vevent.description.startsWith("Breathe in.\nBreathe out.[31m\nRest.\n")).toBe(true);
    expect(vevent.location).toBe("Hall\n3");
  });

  it("fold every line at 75 octets, not characters, never inside a character, and stay the same bytes until the event changes (issue 26 item 7)", async () => {
    const title = "Übung für Körper und Geist: Atemübungen, Dehnübungen und Stille 🧘‍♀️ – 静かな呼吸 ✨";
    const description = "Grüße aus München! ".repeat(8) + "日本語の説明文です。".repeat(6) + "😀".repeat(30);
    const file = calendarFile(BASE, [await eventStoredWith(3, { title, description, place: "Café Gärtnerplatz, Straße 12, München" })]);
    const lines = file.split("\r\n");
    for (const line of lines) expect(Buffer.byteLength(line, "utf8"), line).toBeLessThanOrEqual(75);
    // Some line is folded, and near its limit in octets while far under it in characters.
    expect(lines.some((line) => Buffer.byteLength(line, "utf8") >= 72 && line.length < 60)).toBe(true);
    for (const line of lines) expect(line.isWellFormed()).toBe(true);
    const vevent = new ICAL.Event(new ICAL.Component(ICAL.parse(file)).getFirstSubcomponent("vevent")!);
    expect(vevent.summary).toBe(title);
    expect(vevent.description.startsWith(description)).toBe(true);
    expect(vevent.location).toBe("Café Gärtnerplatz, Straße 12, München");

    // DTSTAMP is the event's last change, not the request's time: the same event, the same file (and ETag).
    const stamp = file.match(/^DTSTAMP:(\S+)$/m)?.[1];
    expect(stamp).toBe(file.match(/^LAST-MODIFIED:(\S+)$/m)?.[1]);
    expect(stamp).toMatch(/^2030/);
  });

  it("the feed holds every upcoming event, cancelled ones marked so", async () => {
    const now = new Date(Date.now() + 4000 * 24 * HOUR);
    const kept = await event(site.services, { now, title: "Kept event for the feed" });
    const dropped = await event(site.services, { now, title: "Dropped event for the feed" });
    await cancelEvent(site.services, dropped.host, dropped.id, now);
    const feed = calendarFile(BASE, (await feedEvents(site.services.db, now)) as never, "Events");
    const events = new ICAL.Component(ICAL.parse(feed)).getAllSubcomponents("vevent");
    const byUid = new Map(events.map((e) => [e.getFirstPropertyValue("uid"), e]));
    expect(byUid.get(eventUid(BASE, kept.id))?.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(byUid.get(eventUid(BASE, dropped.id))?.getFirstPropertyValue("status")).toBe("CANCELLED");
  });
});
