import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { ENGINE, rowCount } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp();
const joinAs = (name: string) => joinOverHttp(web, name);

async function makeAdvisor(memberId: string) {
  await web.site.services.db
    .insertInto("advisor")
    .values({ member_id: memberId, path: "warrior", specialty: "Running", granted_at: new Date().toISOString() })
    .execute();
}

const inDays = (days: number, time: string) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`;

function eventForm(overrides: Record<string, string> = {}) {
  return {
    title: "Hill repeats in the park",
    description: "Six hill repeats, then a slow jog home.",
    path: "warrior",
    startsAt: inDays(10, "07:00"),
    endsAt: inDays(10, "08:30"),
    timeZone: "Europe/Berlin",
    onlineUrl: "",
    place: "Volkspark Friedrichshain, Berlin",
    capacity: "2",
    submissionKey: crypto.randomUUID(),
    ...overrides,
  };
}

const eventCount = () => rowCount(web.site.services.db, "event");
/** Posts the new-event form, its fields changed by `fields`, as the member of `cookie`. */
const postNewEvent = (cookie: string, fields: Record<string, string> = {}) => web.http.post("/events/new", eventForm(fields), { cookie });
/** A refused form: its status, and the message on the page it answers with. */
async function expectRefusal(res: Response, status: number, message: string) {
  expect(res.status, message).toBe(status);
  expect(await readable(res)).toContain(message);
}

describe(`events over HTTP on ${ENGINE}`, () => {
  it("lists the demo's four upcoming events, two per path, and offers the feed", async () => {
    const page = await readable(await web.http.get("/events"));
    expect(page).not.toContain("No upcoming events are scheduled yet.");
    expect(page.match(/>Monk path</g)).toHaveLength(2);
    expect(page.match(/>Warrior path</g)).toHaveLength(2);
    expect(page).toContain('href="/events.ics"');
    expect(page).toContain("Saturday trail run at a talking pace");
    const feed = await web.http.get("/events.ics");
    expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const vevents = new ICAL.Component(ICAL.parse(await feed.text())).getAllSubcomponents("vevent");
    expect(vevents).toHaveLength(4);
  });

  it("gives the feed and an event's file an ETag and answers 304 to a calendar that holds that version (issue 26 item 7)", async () => {
    for (const path of ["/events.ics", "/events/1/calendar.ics"]) {
      const first = await web.http.get(path);
      const etag = first.headers.get("etag");
      expect(etag, path).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      expect(await first.text(), path).toContain("BEGIN:VCALENDAR");
      const again = await web.http.get(path, { "if-none-match": etag! });
      expect(again.status, path).toBe(304);
      expect(await again.text(), path).toBe("");
      expect(again.headers.get("etag"), path).toBe(etag);
      const other = await web.http.get(path, { "if-none-match": 'W/"something-else"' });
      expect(other.status, path).toBe(200);
      expect(other.headers.get("etag"), path).toBe(etag);
    }
  });

  it("answers ids out of range, malformed and unknown with 404", async () => {
    for (const path of [
      "/events/0",
      "/events/abc",
      "/events/2147483648",
      "/events/99999",
      "/events/2147483648/calendar.ics",
      "/events/1e3/calendar.ics",
      "/events/2147483648/edit",
    ]) {
      const res = await web.http.get(path);
      expect(res.status, path).toBe(path.endsWith("/edit") ? 302 : 404);
    }
  });

  it("a member who is no advisor gets 403 naming who may create events", async () => {
    const plain = await joinAs("Pat Plain");
    const form = await web.http.get("/events/new", { cookie: plain.cookie });
    expect(form.status).toBe(403);
    expect(await readable(form)).toContain("Only advisors and admins can create events.");
    const before = await eventCount();
    await expectRefusal(await postNewEvent(plain.cookie), 403, "Only advisors and admins can create events.");
    expect(await eventCount()).toBe(before);
  });

  it("refuses bad input with the form's messages and saves nothing", async () => {
    const host = await joinAs("Hana Host");
    await makeAdvisor(host.id);
    const before = await eventCount();
    const cases: [Record<string, string>, string][] = [
      [{ onlineUrl: "javascript:alert(1)" }, "Enter a link starting with http:// or https://"],
      [{ onlineUrl: "ftp://files.example.org/x" }, "Enter a link starting with http:// or https://"],
      [{ endsAt: inDays(10, "06:00") }, "The end must be after the start"],
      [{ timeZone: "Mars/Olympus_Mons" }, "Choose a time zone that exists"],
      [{ title: "Sunrise run\r\nBcc: x@example.org" }, "Title must be on one line"],
      [{ capacity: "0" }, "Capacity must be a whole number from 1 to 1000"],
      [{ startsAt: "2026-02-30T10:00" }, "Choose a valid start"],
      [{ place: "", onlineUrl: "" }, "Give an online link or a place"],
    ];
    for (const [fields, message] of cases) {
      await expectRefusal(await postNewEvent(host.cookie, fields), 400, message);
    }
    const past = await postNewEvent(host.cookie, { startsAt: inDays(-3, "07:00"), endsAt: inDays(-3, "08:00") });
    await expectRefusal(past, 400, "The start must be in the future");
    expect(await eventCount()).toBe(before);
  });

  it("RSVPs fill the places, the next member is waitlisted and moves up when someone cancels, with a mail", async () => {
    const host = await joinAs("Hugo Host");
    await makeAdvisor(host.id);
    const created = await postNewEvent(host.cookie);
    expect(created.status).toBe(302);
    const path = created.headers.get("location")!;
    expect(path).toMatch(/^\/events\/\d+$/);

    const anonymous = await web.http.post(path, { intent: "going" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/signin\?redirectTo=/);

    const [first, second, third] = [await joinAs("Ada First"), await joinAs("Ben Second"), await joinAs("Cy Third")];
    for (const m of [first, second, third]) expect((await web.http.post(path, { intent: "going" }, { cookie: m.cookie })).status).toBe(302);
    expect(await readable(await web.http.get(path, { cookie: first.cookie }))).toContain("You are going.");
    const thirdPage = await readable(await web.http.get(path, { cookie: third.cookie }));
    expect(thirdPage).toContain("You are number 1 on the waitlist.");
    expect(thirdPage).toContain("Full (2 places), waitlist open");

    expect((await web.http.post(path, { intent: "not_going" }, { cookie: first.cookie })).status).toBe(302);
    expect(await readable(await web.http.get(path, { cookie: third.cookie }))).toContain("You are going.");
    const mails = await web.site.services.db.selectFrom("mail_outbox").select(["kind", "subject"]).where("to_address", "=", third.email).execute();
    expect(mails).toEqual([{ kind: "event-promoted", subject: "A place opened: you are going to Hill repeats in the park" }]);

    const unknown = await web.http.post(path, { intent: "maybe" }, { cookie: first.cookie });
    expect(unknown.status).toBe(400);

    // The calendar file: a download, the same UID on every request, times in UTC.
    const files = await Promise.all([1, 2].map(() => web.http.get(`${path}/calendar.ics`)));
    expect(files[0].headers.get("content-disposition")).toMatch(/^attachment; filename="event-\d+\.ics"$/);
    const [a, b] = await Promise.all(files.map(async (f) => new ICAL.Event(new ICAL.Component(ICAL.parse(await f.text())).getFirstSubcomponent("vevent")!)));
    expect(a.uid).toBe(b.uid);
    expect(a.uid).toBe(`event-${path.split("/").pop()}@localhost:3000`);
    expect(a.startDate.zone?.tzid).toBe("UTC");
    expect(a.summary).toBe("Hill repeats in the park");
  });

  it("/events marks the events the member is going to, for them only, and a kept page follows a waitlist promotion (issue 26 item 4)", async () => {
    const host = await joinAs("Mara Host");
    await makeAdvisor(host.id);
    const created = await postNewEvent(host.cookie, { title: "Sunrise stairs", capacity: "1" });
    const path = created.headers.get("location")!;
    const id = Number(path.split("/").pop());
    const card = async (cookie: string) => {
      const page = await readable(await web.http.get("/events", { cookie }));
      return new RegExp(`<article aria-labelledby="event-${id}-title">[\\s\\S]*?</article>`).exec(page)?.[0] ?? "";
    };
    const [goer, waiting] = [await joinAs("Gil Goer"), await joinAs("Wen Waiting")];
    expect((await web.http.post(path, { intent: "going" }, { cookie: goer.cookie })).status).toBe(302);
    expect((await web.http.post(path, { intent: "going" }, { cookie: waiting.cookie })).status).toBe(302);
    expect(await card(goer.cookie)).toContain("You&#x27;re going");
    // Twice: the second answer may come from the member's kept page.
    for (let i = 0; i < 2; i++) expect(await card(waiting.cookie)).not.toContain("You&#x27;re going");
    expect(await card(host.cookie)).not.toContain("You&#x27;re going");
    // The goer steps back: the waiting member is moved up by someone else's write.
    expect((await web.http.post(path, { intent: "not_going" }, { cookie: goer.cookie })).status).toBe(302);
    expect(await card(waiting.cookie)).toContain("You&#x27;re going");
    expect(await card(goer.cookie)).not.toContain("You&#x27;re going");
    expect(await card(goer.cookie)).toContain("Sunrise stairs");
  });

  it("refuses RSVPs to a cancelled event; the host cancels, going members are mailed", { timeout: 60_000 }, async () => {
    const host = await joinAs("Cara Canceller");
    await makeAdvisor(host.id);
    const path = (await postNewEvent(host.cookie, { capacity: "5" })).headers.get("location")!;
    const goer = await joinAs("Gus Goer");
    await web.http.post(path, { intent: "going" }, { cookie: goer.cookie });
    const stranger = await joinAs("Stan Stranger");
    // Times: signed out in the event's own zone; a member (on UTC) in theirs, with the event's beside it.
    const signedOut = await readable(await web.http.get(path));
    expect(signedOut).toMatch(/07:00 (CET|GMT\+1)/);
    expect(signedOut).not.toContain("where it is set");
    const asMember = await readable(await web.http.get(path, { cookie: goer.cookie }));
    expect(asMember).toContain("06:00 UTC");
    expect(asMember).toMatch(/07:00 (CET|GMT\+1) – .+ in Europe\/Berlin, where it is set/);

    // Only the host (or an admin) edits; going members hear of the change.
    expect((await web.http.get(`${path}/edit`, { cookie: stranger.cookie })).status).toBe(403);
    const { submissionKey: _unused, ...fields } = eventForm({ capacity: "6", place: "Treptower Park, Berlin" });
    expect((await web.http.post(`${path}/edit`, { intent: "edit", ...fields }, { cookie: stranger.cookie })).status).toBe(403);
    const badEdit = await web.http.post(`${path}/edit`, { intent: "edit", ...fields, timeZone: "Europe/Nowhere" }, { cookie: host.cookie });
    expect(badEdit.status).toBe(400);
    expect((await web.http.post(`${path}/edit`, { intent: "edit", ...fields }, { cookie: host.cookie })).status).toBe(302);
    expect(await readable(await web.http.get(path))).toContain("Treptower Park, Berlin");

    expect((await web.http.post(`${path}/edit`, { intent: "cancel" }, { cookie: stranger.cookie })).status).toBe(403);
    expect((await web.http.post(`${path}/edit`, { intent: "cancel" }, { cookie: host.cookie })).status).toBe(302);
    const late = await web.http.post(path, { intent: "going" }, { cookie: stranger.cookie });
    expect(late.status).toBe(409);
    expect(await readable(late)).toContain("This event was cancelled.");
    const kinds = await web.site.services.db.selectFrom("mail_outbox").select("kind").where("to_address", "=", goer.email).execute();
    expect(kinds).toEqual([{ kind: "event-changed" }, { kind: "event-cancelled" }]);
    // Still readable, marked so.
    expect(await readable(await web.http.get(path))).toContain("This event was cancelled.");
  });

  it("a host whose advisor role is revoked no longer edits or cancels their events; an admin still does", { timeout: 60_000 }, async () => {
    const host = await joinAs("Rhea Revoked");
    await makeAdvisor(host.id);
    const admin = await joinAs("Ada Admin");
    await web.site.services.db.updateTable("member").set({ role: "admin" }).where("id", "=", admin.id).execute();
    const path = (await postNewEvent(host.cookie, { title: "Stair climb before work" })).headers.get("location")!;
    expect(await readable(await web.http.get(path, { cookie: host.cookie }))).toContain("Edit Event");

    const revoked = await web.http.post("/admin/advisors", { intent: "revoke", email: host.email }, { cookie: admin.cookie });
    expect(revoked.status).toBe(302);
    // The host's own page (kept for them before) no longer offers what they may not do.
    const page = await readable(await web.http.get(path, { cookie: host.cookie }));
    expect(page).toContain("Stair climb before work");
    expect(page).not.toContain("Edit Event");
    const form = await web.http.get(`${path}/edit`, { cookie: host.cookie });
    expect(form.status).toBe(403);
    expect(await readable(form)).toContain("Only advisors and admins can edit or cancel events.");
    const { submissionKey: _unused, ...fields } = eventForm({ title: "Renamed by a former host" });
    expect((await web.http.post(`${path}/edit`, { intent: "edit", ...fields }, { cookie: host.cookie })).status).toBe(403);
    expect((await web.http.post(`${path}/edit`, { intent: "cancel" }, { cookie: host.cookie })).status).toBe(403);
    const row = await web.site.services.db
      .selectFrom("event")
      .select(["title", "cancelled_at"])
      .where("id", "=", Number(path.split("/").pop()))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ title: "Stair climb before work", cancelled_at: null });

    expect(await readable(await web.http.get(path, { cookie: admin.cookie }))).toContain("Edit Event");
    expect((await web.http.post(`${path}/edit`, { intent: "cancel" }, { cookie: admin.cookie })).status).toBe(302);
  });

  it("50 simultaneous RSVPs over HTTP for 10 places: exactly 10 going, 40 waitlisted in order", async () => {
    const host = await joinAs("Rae Racer");
    await makeAdvisor(host.id);
    const path = (await postNewEvent(host.cookie, { capacity: "10" })).headers.get("location")!;
    const members = [];
    for (let batch = 0; batch < 5; batch++) members.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => joinAs(`Racer ${batch * 10 + i}`)))));
    const answers = await Promise.all(members.map((m) => web.http.post(path, { intent: "going" }, { cookie: m.cookie })));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(302));
    const id = Number(path.split("/").pop());
    const rows = await web.site.services.db.selectFrom("event_rsvp").select(["status", "waitlist_position"]).where("event_id", "=", id).execute();
    expect(rows.filter((r) => r.status === "going")).toHaveLength(10);
    expect(
      rows
        .filter((r) => r.status === "waitlisted")
        .map((r) => Number(r.waitlist_position))
        .sort((x, y) => x - y),
    ).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  }, 120_000);
});
