import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { dashboardLists } from "~/.server/domain/accounts/dashboard-read-model";
import { joinChallenge } from "~/.server/domain/challenges/challenge-service";
import { rsvp } from "~/.server/domain/events/event-service";
import { postReply } from "~/.server/domain/forum/forum-service";
import { rankById } from "~/lib/ranks";
import { answer, challenge, creation, discussion, event, member, memberIdByEmail, question } from "../factories";
import { readable, siteOverHttp } from "./site-server";
import { cookieHeader, ENGINE, statementsDuring } from "./test-services";

// One site for the file: the read model on its database, and the page over HTTP.
const web = siteOverHttp({ demo: false });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe(`the dashboard's read model on ${ENGINE}`, () => {
  it("a new member has four first steps to take, no lists, and a busy member costs as many queries as one with one of each", async () => {
    const services = web.site.services;
    const fresh = await member(services.db);
    const empty = await dashboardLists(services.db, fresh.id);
    expect(empty.firstSteps?.map((s) => [s.label, s.href, s.done])).toEqual([
      ["Introduce yourself in a topic", "/monastery", false],
      ["Join a challenge", "/challenges", false],
      ["Ask or answer in the Council", "/council", false],
      ["Share in the Forge", "/forge/new", false],
    ]);
    expect(empty).toMatchObject({ active: [], events: [], posts: [] });

    // One of everything, then three of everything: the queries stay the same in number (no N+1).
    const active = async (count: number) => {
      const m = await member(services.db, { xp: rankById("acolyte").minXp });
      for (let i = 0; i < count; i++) {
        await discussion(services, { author: m });
        await creation(services.db, { author: m });
        const q = await question(services, { asker: m, title: `Busy question ${i}` });
        await answer(services, q.id, { author: m });
        const e = await event(services);
        expect((await rsvp(services, m, e.id, "going")).ok).toBe(true);
        const c = await challenge(services.db);
        expect((await joinChallenge(services, m, c.id)).ok).toBe(true);
      }
      return m;
    };
    const one = await active(1);
    const busy = await active(3);
    const few = await statementsDuring(services.db, () => dashboardLists(services.db, one.id));
    const many = await statementsDuring(services.db, () => dashboardLists(services.db, busy.id));
    expect(many.length).toBe(few.length);
    const full = await dashboardLists(services.db, busy.id);
    expect(full.firstSteps).toBeNull();
    expect(full.active).toHaveLength(3);
    expect(full.events).toHaveLength(3);
    expect(full.posts).toHaveLength(5);
  });

  it("each step ticks itself: a reply, a joined challenge, an answer and a creation; the list then goes away", async () => {
    const services = web.site.services;
    const m = await member(services.db);
    const started = await discussion(services, { title: "Somebody else's discussion" });
    expect((await postReply(services, m, started.id, { body: "Hello, I am new here.", submissionKey: randomUUID() })).ok).toBe(true);
    const done = async () => (await dashboardLists(services.db, m.id)).firstSteps?.filter((s) => s.done).map((s) => s.id);
    expect(await done()).toEqual(["forum"]);

    const c = await challenge(services.db, { title: "Step challenge" });
    expect((await joinChallenge(services, m, c.id)).ok).toBe(true);
    expect(await done()).toEqual(["forum", "challenge"]);

    const q = await question(services);
    await answer(services, q.id, { author: m });
    expect(await done()).toEqual(["forum", "challenge", "council"]);

    await creation(services.db, { author: m, title: "My first poem" });
    expect((await dashboardLists(services.db, m.id)).firstSteps).toBeNull();
  });

  it("lists going events not yet ended, soonest first, and the latest five visible posts with links", async () => {
    const services = web.site.services;
    const db = services.db;
    const m = await member(db, { xp: rankById("acolyte").minXp, name: "Lister" });
    const now = new Date();

    const later = await event(services, { title: "Later sit", startsAt: new Date(now.getTime() + 5 * DAY) });
    const soon = await event(services, { title: "Soon sit", startsAt: new Date(now.getTime() + 1 * DAY) });
    const declined = await event(services, { title: "Declined sit" });
    const cancelled = await event(services, { title: "Cancelled sit" });
    const past = await event(services, { title: "Past sit", now: new Date(now.getTime() - 10 * DAY), startsAt: new Date(now.getTime() - 5 * DAY) });
    for (const e of [later, soon, cancelled]) expect((await rsvp(services, m, e.id, "going")).ok).toBe(true);
    expect((await rsvp(services, m, declined.id, "not_going")).ok).toBe(true);
    expect((await rsvp(services, m, past.id, "going", new Date(now.getTime() - 6 * DAY))).ok).toBe(true);
    await db.updateTable("event").set({ cancelled_at: now.toISOString() }).where("id", "=", cancelled.id).execute();

    const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
    const own = await discussion(services, { author: m, title: "Oldest discussion", at: at(10) });
    const q = await question(services, { asker: m, title: "My question", at: at(8) });
    const other = await question(services, { title: "Their question", at: at(7) });
    const a = await answer(services, other.id, { author: m, at: at(6) });
    const r = await postReply(services, m, own.id, { body: "A reply of mine", submissionKey: randomUUID() }, at(5));
    expect(r.ok).toBe(true);
    const made = await creation(db, { author: m, title: "My creation", at: at(4) });
    const gone = await creation(db, { author: m, title: "Deleted creation", at: at(1) });
    await db.updateTable("creation").set({ deleted_at: now.toISOString() }).where("id", "=", gone.id).execute();

    const lists = await dashboardLists(db, m.id, now);
    expect(lists.events.map((e) => e.title)).toEqual(["Soon sit", "Later sit"]);
    expect(lists.events[0].start).toMatch(/\d{2}:\d{2}/);
    expect(lists.posts.map((p) => [p.kind, p.title, p.href])).toEqual([
      ["creation", "My creation", `/forge/${made.id}`],
      ["reply", "Oldest discussion", `/${own.section}/${own.topicId}/${own.id}-${own.slug}?after=${r.ok ? r.value.id - 1 : 0}#reply-${r.ok ? r.value.id : 0}`],
      ["answer", "Their question", `/council/${other.id}#answer-${a.id}`],
      ["question", "My question", `/council/${q.id}`],
      ["discussion", "Oldest discussion", `/${own.section}/${own.topicId}/${own.id}-${own.slug}`],
    ]);
  });
});

let joined = 0;
async function joinSite(name: string) {
  joined += 1;
  const email = `dashboard${joined}-${Date.now()}@example.org`;
  const res = await web.http.post(
    "/join",
    { fullName: name, email, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" },
    { "x-forwarded-for": `198.51.100.${40 + joined}` },
  );
  expect(res.status).toBe(200);
  const id = await memberIdByEmail(web.site.services.db, email);
  const viewer = (await web.site.services.db
    .selectFrom("member")
    .select(["id", "name", "email", "handle", "role"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow()) as Viewer;
  return { cookie: cookieHeader(res.headers), viewer };
}
const dashboard = async (cookie: string) => {
  const res = await web.http.get("/dashboard", { cookie });
  expect(res.status).toBe(200);
  return readable(res);
};

describe(`the dashboard page over HTTP on ${ENGINE}`, () => {
  it("a new member sees the first steps and empty lists with links to act; the page follows each step as it is taken", async () => {
    const services = web.site.services;
    const { cookie, viewer } = await joinSite("Nova Newcomer");
    let html = await dashboard(cookie);
    // The seed's cards stay.
    for (const title of ["Rank", "Next rank", "Virtues", "Recent activity"]) expect(html).toContain(`>${title}</h2>`);
    expect(html).toContain("First steps");
    expect(html).toContain("0 of 4 done.");
    expect(html).toContain(
      '<a href="/monastery" data-discover="true" data-client-link="" class="font-semibold text-monk-strong underline">Introduce yourself in a topic</a>',
    );
    expect(html).toContain(">Join a challenge</a>");
    expect(html).toContain(">Ask or answer in the Council</a>");
    expect(html).toContain(">Share in the Forge</a>");
    expect(html).not.toContain("(done)");
    expect(html).toContain("No upcoming events yet.");
    expect(html).toContain(">Browse events</a>");
    expect(html).toContain("No posts yet.");
    expect(html).not.toContain("You&#x27;re on this");
    expect(html).not.toContain("You&#x27;re going");

    // Written behind the page's back (no request to bump a cache tag): a kept dashboard would miss it.
    const started = await discussion(services, { author: viewer, title: "Hello from Nova" });
    html = await dashboard(cookie);
    expect(html).toContain("1 of 4 done.");
    expect(html.match(/\(done\)/g)).toHaveLength(1);
    expect(html).toContain(`href="/${started.section}/${started.topicId}/${started.id}-${started.slug}"`);
    expect(html).toContain("Hello from Nova</a>");

    const c = await challenge(services.db, { title: "Nova's first challenge" });
    expect((await joinChallenge(services, viewer, c.id)).ok).toBe(true);
    const e = await event(services, { title: "Nova's first sit" });
    expect((await rsvp(services, viewer, e.id, "going")).ok).toBe(true);
    html = await dashboard(cookie);
    expect(html).toContain("2 of 4 done.");
    expect(html).toContain("You&#x27;re on this");
    expect(html).toContain("You&#x27;re going");
    expect(html).toContain(`href="/events/${e.id}"`);

    const q = await question(services);
    await answer(services, q.id, { author: viewer });
    await creation(services.db, { author: viewer });
    html = await dashboard(cookie);
    expect(html).not.toContain("First steps");
    expect(html).not.toContain("(done)");
  });

  it("a visitor is sent to sign in, not shown anyone's dashboard", async () => {
    const res = await web.http.get("/dashboard");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/signin/);
  });
});
