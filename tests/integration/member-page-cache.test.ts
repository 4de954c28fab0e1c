import { afterAll, describe, expect, it, vi } from "vitest";
import { creation, discussion, grantXp, member, memberIdByEmail } from "../factories";
import { postReply } from "~/.server/domain/forum/forum-service";
import { rankById } from "~/lib/ranks";
import { cookieHeader, createTestSite, ENGINE, type TestSite } from "./test-services";
import { readable, siteOverHttp, startSite } from "./site-server";

/*
 * A signed-in member's pages kept in memory for that member (ADR 0040): answered again only for the
 * same Cookie header, while the session stands as it was, and dropped by the member's own writes,
 * by any write to what the page shows, and by anything that moves the member's row (XP, rank,
 * role, name) or ends the session.
 */

vi.setConfig({ testTimeout: 90_000 });

const web = siteOverHttp();
const db = () => web.site.services.db;

type Site = Pick<typeof web.http, "get" | "post">;
let n = 0;
/**
 * Joins through the site from an address of its own (5 joins a day per address); `database` is the
 * one behind `http` (another site's, for the instances on PostgreSQL).
 */
async function joinAs(name: string, xp = 0, http: Site = web.http, database = db()) {
  n += 1;
  const email = `kept${n}-${Date.now()}@example.org`;
  const res = await http.post(
    "/join",
    { fullName: name, email, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" },
    { "x-forwarded-for": `198.18.${n}.1` },
  );
  expect(res.status).toBe(200);
  const id = await memberIdByEmail(database, email);
  const cookie = sessionOnly(cookieHeader(res.headers));
  // The first page after a new rank notes it as seen (a write of the member's row): done here.
  if (xp) {
    await grantXp(database, id, xp);
    await (await http.get("/dashboard", { cookie })).arrayBuffer();
  }
  return { id, name, email, cookie };
}
type Member = Awaited<ReturnType<typeof joinAs>>;

/** The bell's count as a page shows it (its link's name), 0 when it says none. */
const bellCount = (html: string) => Number(/aria-label="Notifications \((\d+) unread\)"/.exec(html)?.[1] ?? 0);

/** Someone else mentions the member in a reply, through the domain of the site given: a notification for them. */
async function mention(services: TestSite["services"], memberId: string) {
  const { handle } = await services.db.selectFrom("member").select("handle").where("id", "=", memberId).executeTakeFirstOrThrow();
  const d = await discussion(services);
  const replier = await member(services.db, { xp: rankById("acolyte").minXp });
  const posted = await postReply(services, replier, d.id, { body: `Over to you, @${handle}.`, submissionKey: crypto.randomUUID() });
  expect(posted.ok).toBe(true);
}

/** The session cookie alone, as a browser sends it once a welcome toast has been shown. */
const sessionOnly = (cookie: string) =>
  cookie
    .split("; ")
    .filter((pair) => !pair.startsWith("ipos_flash="))
    .join("; ");

async function signInAgain(m: Member) {
  const res = await web.http.post(
    "/signin",
    { email: m.email, password: "Secret123", rememberMe: "on", redirectTo: "/dashboard" },
    { "x-forwarded-for": `198.18.${n}.2` },
  );
  expect(res.status).toBe(302);
  return sessionOnly(cookieHeader(res.headers));
}

async function get(path: string, cookie?: string, http: Site = web.http) {
  const res = await http.get(path, cookie ? { cookie } : {});
  return { status: res.status, cache: res.headers.get("x-page-cache"), headers: res.headers, html: await readable(res) };
}
/**
 * The member asks twice: the second answer comes from memory. A member's first view of a discussion
 * records how far they read (issue 28), a side effect that drops the pages saying what is new to
 * them, itself included; that view is made first, and the two after it are the ones compared.
 */
async function kept(path: string, cookie: string, http: Site = web.http) {
  if (/^\/[a-z]+\/[^/]+\/\d+-/.test(path)) expect((await get(path, cookie, http)).status, path).toBe(200);
  const first = await get(path, cookie, http);
  expect(first.status, path).toBe(200);
  const second = await get(path, cookie, http);
  expect(second.cache, `${path} asked again`).toBe("hit");
  expect(second.html).toBe(first.html);
  return second;
}

const discussionPath = async () => {
  const d = await db()
    .selectFrom("discussion")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["discussion.id", "discussion.slug", "topic.id as topic_id", "topic.section"])
    .orderBy("discussion.id")
    .limit(1)
    .executeTakeFirstOrThrow();
  return { id: d.id, path: `/${d.section}/${d.topic_id}/${d.id}-${d.slug}` };
};

describe(`a member's pages kept in memory, on ${ENGINE}`, () => {
  it("are answered again for the same Cookie header alone, with no nonce and no cookie set", async () => {
    const { path } = await discussionPath();
    const ada = await joinAs("Ada Kept");
    const bo = await joinAs("Bo Kept");

    const mine = await kept(path, ada.cookie);
    expect(mine.html).toContain("Account menu for Ada Kept");
    expect(mine.headers.get("set-cookie")).toBeNull();
    expect(mine.headers.get("cache-control")).toBe("private, no-cache");
    // Its inline scripts are named by hash: a nonce sent twice would be no nonce.
    expect(mine.headers.get("content-security-policy")).toMatch(/'sha256-/);
    expect(mine.headers.get("content-security-policy")).not.toMatch(/'nonce-/);

    // Another member, a visitor, the same member's other session and a cookie added: each their own page.
    const bos = await get(path, bo.cookie);
    expect(bos.cache).toBe("miss");
    expect(bos.html).toContain("Account menu for Bo Kept");
    expect(bos.html).not.toContain("Ada Kept");
    const visitor = await get(path);
    expect(visitor.cache).not.toBe("hit");
    expect(visitor.html).not.toContain("Account menu for");
    expect((await get(path, await signInAgain(ada))).cache).toBe("miss");
    expect((await get(path, `${ada.cookie}; theme=dark`)).cache).toBe("miss");
    // A tampered session cookie is nobody's, and never gets Ada's page.
    const forged = await get(path, ada.cookie.replace(/=([^.;]+)\./, "=x$1."));
    expect(forged.cache).toBe("miss");
    expect(forged.html).not.toContain("Ada Kept");
  });

  it("are dropped by the member's own write, on every device, and no one else's page is", async () => {
    const cy = await joinAs("Cy Kept", rankById("acolyte").minXp);
    const other = await joinAs("Di Kept");
    const phone = await signInAgain(cy);
    const c = (await creation(db(), { title: `Kept ink ${n}` })).id;
    await kept("/events", cy.cookie);
    await kept("/events", phone);
    await kept("/events", other.cookie);
    await get("/events");
    expect((await get("/events")).cache).toBe("hit");

    // A like changes nothing /events shows and no XP of Cy's: only Cy's own tag drops Cy's pages.
    const liked = await web.http.post(`/forge/${c}`, { intent: "like" }, { cookie: cy.cookie });
    expect(liked.status).toBe(200);
    expect((await get("/events", cy.cookie)).cache).toBe("miss");
    expect((await get("/events", phone)).cache).toBe("miss");
    expect((await get("/events", other.cookie)).cache).toBe("hit");
    expect((await get("/events")).cache).toBe("hit");
    // And the page that shows the like shows it to Cy at once.
    expect((await get(`/forge/${c}`, cy.cookie)).html).toContain("1 like");
  });

  it("show the bell's count as it is now: someone else's mention misses the member's kept page at once (issue 28)", async () => {
    const gus = await joinAs("Gus Bell");
    const before = await kept("/events", gus.cookie);
    await mention(web.site.services, gus.id);
    const after = await get("/events", gus.cookie);
    expect(after.cache).toBe("miss");
    expect(bellCount(after.html)).toBe(bellCount(before.html) + 1);
    // Another member's kept page stays kept: the count is the member's own.
    const hal = await joinAs("Hal Bell");
    await kept("/events", hal.cookie);
    await mention(web.site.services, gus.id);
    expect((await get("/events", hal.cookie)).cache).toBe("hit");
  });

  it("are dropped by someone else's write to what they show", async () => {
    const { path } = await discussionPath();
    const reader = await joinAs("Eve Kept");
    const writer = await joinAs("Fay Kept");
    await kept(path, reader.cookie);
    const form = (await get(path, writer.cookie)).html;
    const submissionKey = form.match(/name="submissionKey" value="([^"]+)"/)![1]!;
    const replied = await web.http.post(path, { intent: "reply", body: `Kept reply ${n}, counted slowly.`, submissionKey }, { cookie: writer.cookie });
    expect(replied.status).toBe(302);
    // The reader had read it all: the discussion now opens at the reply they have not read (issue 28).
    const back = await get(path, reader.cookie);
    expect(back.cache).toBe("miss");
    expect(back.status).toBe(302);
    const first = new URL(back.headers.get("location")!, "http://site.invalid");
    expect(first.hash).toMatch(/^#reply-\d+$/);
    const after = await get(first.pathname + first.search, reader.cookie);
    expect(after.cache).toBe("miss");
    expect(after.html).toContain(`Kept reply ${n}, counted slowly.`);
  });

  it("give two tabs one form key, and the second tab's different reply is still posted, not taken for the first", async () => {
    const { id, path } = await discussionPath();
    const kim = await joinAs("Kim Kept");
    const page = await kept(path, kim.cookie);
    // Both tabs show the same kept page, so the same one-time key.
    const submissionKey = page.html.match(/name="submissionKey" value="([^"]+)"/)![1]!;
    const replies = async () =>
      (await db().selectFrom("reply").select("body").where("discussion_id", "=", id).where("author_id", "=", kim.id).orderBy("id").execute()).map(
        (r) => r.body,
      );
    const post = (body: string) => web.http.post(path, { intent: "reply", body, submissionKey }, { cookie: kim.cookie });
    expect((await post(`First tab's thought ${n}.`)).status).toBe(302);
    // A double submit of the same text is still one reply.
    expect((await post(`First tab's thought ${n}.`)).status).toBe(302);
    expect((await post(`Second tab's other thought ${n}.`)).status).toBe(302);
    expect(await replies()).toEqual([`First tab's thought ${n}.`, `Second tab's other thought ${n}.`]);
  });

  it("are dropped when an administrator makes the member an advisor", async () => {
    const lee = await joinAs("Lee Kept");
    const admin = await joinAs("Max Kept");
    await db().updateTable("member").set({ role: "admin" }).where("id", "=", admin.id).execute();
    await kept("/events", lee.cookie);
    const granted = await web.http.post("/admin/advisors", { email: lee.email, path: "monk", specialty: "Breathwork" }, { cookie: admin.cookie });
    expect(granted.status).toBe(302);
    expect((await get("/events", lee.cookie)).cache).toBe("miss");
  });

  it("are dropped when the member's XP or rank moves by anyone's hand, and a rank-up toast shows once", async () => {
    const gus = await joinAs("Gus Kept");
    await kept("/events", gus.cookie);
    // Outside any request, as someone else's vote or an accepted answer would move it.
    await grantXp(db(), gus.id, 3);
    expect((await get("/events", gus.cookie)).cache).toBe("miss");

    await kept("/events", gus.cookie);
    await grantXp(db(), gus.id, rankById("acolyte").minXp);
    const risen = await get("/events", gus.cookie);
    expect(risen.cache).toBe("miss");
    expect(risen.html).toContain("You are now Acolyte!");
    // The toast moved the rank seen: the page it was on is not answered again.
    const next = await get("/events", gus.cookie);
    expect(next.cache).toBe("miss");
    expect(next.html).not.toContain("You are now Acolyte!");
    expect((await get("/events", gus.cookie)).cache).toBe("hit");
  });

  it("end at once with the session: signed out, or every session deleted by a password reset", async () => {
    const hal = await joinAs("Hal Kept");
    const laptop = await signInAgain(hal);
    await kept("/events", hal.cookie);
    await kept("/events", laptop);

    const out = await web.http.post("/signout", {}, { cookie: laptop });
    expect(out.status).toBe(302);
    const replayed = await get("/events", laptop);
    expect(replayed.cache).toBe("miss");
    expect(replayed.html).not.toContain("Hal Kept");

    await kept("/events", hal.cookie);
    // As a password reset does, outside any request of this member's.
    await db().deleteFrom("session").where("member_id", "=", hal.id).execute();
    const revoked = await get("/events", hal.cookie);
    expect(revoked.cache).toBe("miss");
    expect(revoked.html).not.toContain("Hal Kept");
  });

  it("are not answered once the session is due for its daily refresh", async () => {
    const ivy = await joinAs("Ivy Kept");
    const { sessionConfig } = await web.site.services.auth.$context;
    // The refresh falls due 1.5 s from now.
    const expires = new Date(Date.now() + sessionConfig.expiresIn * 1000 - sessionConfig.updateAge * 1000 + 1500);
    await db()
      .updateTable("session")
      .set({ expires_at: ENGINE === "postgres" ? expires : (expires.toISOString() as never) })
      .where("member_id", "=", ivy.id)
      .execute();
    await kept("/events", ivy.cookie);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const due = await get("/events", ivy.cookie);
    expect(due.cache).toBe("miss");
    expect(due.html).toContain("Ivy Kept");
    // Better Auth refreshed the session and sent the cookie again.
    expect(due.headers.get("set-cookie")).toContain("session_token");
  });

  it("never keeps a page that declares nothing it reads, a question (its views count per member) or a flash", async () => {
    const jo = await joinAs("Jo Kept");
    for (const path of ["/dashboard", "/settings"]) {
      expect((await get(path, jo.cookie)).status, path).toBe(200);
      expect((await get(path, jo.cookie)).cache, path).toBe("miss");
    }
    const { id } = await db().selectFrom("question").select("id").orderBy("id").limit(1).executeTakeFirstOrThrow();
    await get(`/council/${id}`, jo.cookie);
    expect((await get(`/council/${id}`, jo.cookie)).cache).toBe("miss");

    const flashed = `${jo.cookie}; ipos_flash=signed-in`;
    const first = await get("/events", flashed);
    expect(first.headers.get("set-cookie")).toContain("ipos_flash=");
    expect((await get("/events", flashed)).cache).toBe("miss");
  });
});

// Several instances exist only on PostgreSQL: a member's write on one drops their pages on the other.
if (ENGINE === "postgres")
  describe("a member's kept pages across two instances on PostgreSQL", () => {
    let site: TestSite;
    let second: TestSite;
    let a: Awaited<ReturnType<typeof startSite>>;
    let b: Awaited<ReturnType<typeof startSite>>;
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await second?.close();
      await site?.destroy();
    });

    it("a like through instance B drops the member's page kept by instance A (LISTEN/NOTIFY)", async () => {
      site = await createTestSite();
      second = await site.another();
      a = await startSite(site);
      b = await startSite(second);
      const { id, cookie } = await joinAs("Kai Kept", rankById("acolyte").minXp, a, site.services.db);
      const c = (await creation(site.services.db, { title: "Kept across" })).id;
      await kept("/events", cookie, a);

      expect((await b.post(`/forge/${c}`, { intent: "like" }, { cookie })).status).toBe(200);
      const deadline = Date.now() + 5000;
      while ((await get("/events", cookie, a)).cache === "hit") {
        if (Date.now() > deadline) throw new Error("A kept the member's page after their write on B");
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // The drop reached A over the bus, not through a change of the member's row.
      const { xp } = await site.services.db.selectFrom("member").select("xp").where("id", "=", id).executeTakeFirstOrThrow();
      expect(Number(xp)).toBe(rankById("acolyte").minXp);
    });

    it("a notification written through instance B shows on the member's page kept by instance A at once (issue 28)", async () => {
      const { id, cookie } = await joinAs("Ivy Bell", 0, a, site.services.db);
      const before = await kept("/events", cookie, a);
      await mention(second.services, id);
      // No wait and no bus: every hit checks the session's count first.
      const after = await get("/events", cookie, a);
      expect(after.cache).toBe("miss");
      expect(bellCount(after.html)).toBe(bellCount(before.html) + 1);
    });
  });
