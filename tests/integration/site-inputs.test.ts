import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cookieHeader, ENGINE, rowCount } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp();

/** One past the largest value of a 32-bit `integer` column (PostgreSQL refuses it with an error). */
const TOO_BIG = "2147483648";
const cursor = (at: string, id: number) => Buffer.from(JSON.stringify([at, id])).toString("base64url");

let n = 0;
/** A join from an address of its own (the site lets 5 joins a day through from one IP), for joins the site refuses. */
const joinerAddress = () => ({ "x-forwarded-for": `198.51.100.${(n += 1)}` });
const joinAs = async (name: string) => (await joinOverHttp(web, name)).cookie;

async function aDiscussion() {
  const d = await web.site.services.db.selectFrom("discussion").select(["id", "slug"]).where("topic_id", "=", "breath-and-stillness").executeTakeFirstOrThrow();
  return `/monastery/breath-and-stillness/${d.id}-${d.slug}`;
}

describe(`ids and cursors out of range over HTTP on ${ENGINE} (issue 7, item 8)`, () => {
  it("answers ids past 2^31 in the address with 404, and the largest id with a plain 404", async () => {
    for (const path of [
      `/council/${TOO_BIG}`,
      `/forge/${TOO_BIG}`,
      `/monastery/breath-and-stillness/${TOO_BIG}`,
      `/monastery/breath-and-stillness/${TOO_BIG}-some-slug`,
      "/council/99999999999999999999",
      "/council/2147483647",
      "/forge/2147483647",
    ]) {
      expect((await web.http.get(path)).status, path).toBe(404);
    }
  });

  it("answers reply cursors past 2^31 with 400", async () => {
    const path = await aDiscussion();
    expect((await web.http.get(`${path}?after=${TOO_BIG}`)).status).toBe(400);
    expect((await web.http.get(`${path}?before=${TOO_BIG}`)).status).toBe(400);
    expect((await web.http.get(`${path}?after=2147483647`)).status).toBe(200);
  });

  it("answers topic and Council cursors with an id past 2^31 or a date that does not exist with 400", async () => {
    for (const list of ["/monastery/breath-and-stillness", "/council"]) {
      for (const raw of [
        cursor("2026-11-21T10:00:00.000Z", 2147483648),
        cursor("2026-02-30T10:00:00.000Z", 1),
        cursor("2026-11-21T24:00:00.000Z", 1),
        cursor("2026-13-01T10:00:00Z", 1),
      ]) {
        expect((await web.http.get(`${list}?after=${raw}`)).status, `${list} ${raw}`).toBe(400);
        expect((await web.http.get(`${list}?before=${raw}`)).status, `${list} ${raw}`).toBe(400);
      }
      expect((await web.http.get(`${list}?after=${cursor("2026-02-28T10:00:00.000Z", 2147483647)}`)).status, list).toBe(200);
    }
  });

  it("answers an answerId or reply id past 2^31 in a form with 400", async () => {
    const cookie = await joinAs("Range Checker");
    const question = await web.site.services.db.selectFrom("question").select("id").orderBy("id").executeTakeFirstOrThrow();
    for (const intent of ["helpful", "unhelpful", "accept", "edit-answer", "delete-answer"]) {
      const res = await web.http.post(`/council/${question.id}`, { intent, answerId: TOO_BIG, body: "x" }, { cookie });
      expect(res.status, intent).toBe(400);
    }
    const path = await aDiscussion();
    for (const intent of ["edit", "delete", "moderate"]) {
      const res = await web.http.post(path, { intent, kind: "reply", id: TOO_BIG, body: "x", action: "hide" }, { cookie });
      expect(res.status, intent).toBe(400);
    }
  });
});

describe(`sign-in redirect targets over HTTP on ${ENGINE} (issue 7, item 9)`, () => {
  it("sends hostile redirectTo values to /dashboard and never answers 500", async () => {
    const { email } = await joinOverHttp(web, "Red Irect");
    const signIn = (redirectTo: string, i: number) =>
      web.http.post("/signin", { email, password: "Secret123", redirectTo }, { "x-forwarded-for": `203.0.113.${i}` });

    const hostile = [
      "/\t/evil.example",
      "/\n/evil.example",
      "//evil.example",
      "/\\evil.example",
      "\\/evil.example",
      "/%09/evil.example",
      "/%2F%2Fevil.example",
      "https://evil.example",
      "javascript:alert(1)",
      `/${"a".repeat(5000)}`,
    ];
    for (const [i, target] of hostile.entries()) {
      const res = await signIn(target, i + 1);
      expect(res.status, JSON.stringify(target)).toBe(302);
      expect(res.headers.get("location"), JSON.stringify(target)).toBe("/dashboard");
    }
    const wide = await signIn("/。/x", 100);
    expect(wide.status).toBe(302);
    expect(wide.headers.get("location")).toBe("/%E3%80%82/x");
    const kept = await signIn("/council/1?edit=question#answer-2", 101);
    expect(kept.headers.get("location")).toBe("/council/1?edit=question#answer-2");
  });
});

describe(`newsletter links over HTTP on ${ENGINE}`, () => {
  const statusOf = async (email: string) =>
    (await web.site.services.db.selectFrom("newsletter_subscription").select("status").where("email", "=", email).executeTakeFirstOrThrow()).status;

  it("confirms when the form is posted by JavaScript to the .data address, and unsubscribes only from the unsubscribe route", async () => {
    const email = `reader-${Date.now()}@example.org`;
    expect((await web.http.post("/newsletter", { email })).status).toBe(200);
    const { token } = await web.site.services.db.selectFrom("newsletter_subscription").select("token").where("email", "=", email).executeTakeFirstOrThrow();

    const confirmed = await web.http.post("/newsletter/confirm.data", { token });
    expect(confirmed.status).toBe(200);
    expect(await statusOf(email)).toBe("confirmed");
    const page = await web.http.get(`/newsletter/confirm?token=${token}`);
    expect(await page.text()).toContain("You are subscribed");

    // RFC 8058 one-click, as a mail provider sends it: no Origin, the token in the address.
    const oneClick = await fetch(`${web.http.base}/newsletter/unsubscribe?token=${token}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await statusOf(email)).toBe("unsubscribed");
  });

  it("answers the form posted without JavaScript with a 303 back to its page, the message shown there; a refusal changes nothing (issue 26 item 6)", async () => {
    // What a browser sends on its own form post: a navigation, which asks for a page.
    const browser = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "x-forwarded-for": "203.0.113.61" };
    const page = await readable(await web.http.get("/forge"));
    expect(page).toContain('name="redirectTo" value="/forge"');
    // In place in the footer, where a browser without JavaScript shows it: not sent apart in a hidden
    // element for a script to move (React does that with a part late in a long page, unless told not to).
    const footer = page.slice(page.indexOf("<footer"), page.indexOf("</footer>"));
    expect(footer).toContain('<form id="newsletter"');
    expect(page).not.toMatch(/<div hidden id="S:/);

    const email = `no-js-${Date.now()}@example.org`;
    const res = await web.http.post("/newsletter", { email, redirectTo: "/forge?page=2" }, browser);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/forge?page=2#newsletter");
    const back = await readable(await web.http.get("/forge?page=2", { cookie: cookieHeader(res.headers) }));
    expect(back).toMatch(/role="status"[^>]*>Thank you! Check your inbox for a link to confirm your subscription.</);
    expect(await statusOf(email)).toBe("pending");

    const count = () => rowCount(web.site.services.db, "newsletter_subscription");
    const before = await count();
    // A refusal changes no page: kept pages stay kept.
    await web.http.get("/terms");
    expect((await web.http.get("/terms")).headers.get("x-page-cache")).toBe("hit");
    const refused = await web.http.post("/newsletter", { email: "not-an-address", redirectTo: "//evil.example/x" }, browser);
    expect((await web.http.get("/terms")).headers.get("x-page-cache")).toBe("hit");
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe("/#newsletter");
    const home = await readable(await web.http.get("/", { cookie: cookieHeader(refused.headers) }));
    expect(home).toMatch(/role="status"[^>]*>Please enter a valid email address</);
    expect(await count()).toBe(before);

    // Past the hourly limit the page says so, and nothing more is stored.
    for (let i = 0; i < 9; i++) await web.http.post("/newsletter", { email: `no-js-${i}-${email}`, redirectTo: "/" }, browser);
    const afterLimit = await count();
    const limited = await web.http.post("/newsletter", { email: `late-${email}`, redirectTo: "/faq" }, browser);
    expect(limited.headers.get("location")).toBe("/faq#newsletter");
    expect(await readable(await web.http.get("/faq", { cookie: cookieHeader(limited.headers) }))).toMatch(
      /role="status"[^>]*>Too many attempts. Try again later.</,
    );
    expect(await count()).toBe(afterLimit);

    // A fetcher's post (fetch's default Accept) still gets the data it shows in place.
    const fetched = await web.http.post("/newsletter", { email: "still-not" }, { "x-forwarded-for": "203.0.113.62" });
    expect(fetched.status).toBe(400);
    expect(await fetched.text()).toContain("Please enter a valid email address");
  });
});

describe(`mailed links that cannot be used, over HTTP on ${ENGINE}`, () => {
  it("say so in their own words, not with the not-found page", async () => {
    const cookie = await joinAs("Link Follower");
    for (const [path, message, headers] of [
      ["/newsletter/confirm?token=made-up", "This link is not valid. It may have been replaced by a newer one.", {}],
      ["/newsletter/unsubscribe?token=made-up", "This link is not valid. It may have been replaced by a newer one.", {}],
      ["/settings/email?token=made-up", "This link is not valid or has expired. Ask for a new one in your settings.", { cookie }],
    ] as const) {
      const res = await web.http.get(path, headers);
      expect(res.status, path).toBe(404);
      const html = await readable(res);
      expect(html, path).toContain(message);
      expect(html, path).not.toContain("Oops! Page not found");
    }
    const unknown = await readable(await web.http.get("/no-such-page"));
    expect(unknown).toContain("Oops! Page not found");
  });
});

describe(`hostile bodies and addresses over HTTP on ${ENGINE}`, () => {
  /** A member's post with a raw body and content type, as a broken client or an attacker sends it. */
  const raw = (path: string, cookie: string, body: string | undefined, contentType?: string) =>
    fetch(web.http.base + path, {
      method: "POST",
      redirect: "manual",
      headers: { origin: web.http.base, cookie, ...(contentType ? { "content-type": contentType } : {}) },
      body,
    });

  it("answers a post whose body is not a form with 400 on every route with an action, never 500", async () => {
    const cookie = await joinAs("Body Breaker");
    const member = await web.site.services.db.selectFrom("member").select("id").where("name", "=", "Body Breaker").executeTakeFirstOrThrow();
    await web.site.services.db.updateTable("member").set({ role: "admin" }).where("id", "=", member.id).execute();
    const { db } = web.site.services;
    const creation = await db.selectFrom("creation").select("id").orderBy("id").executeTakeFirstOrThrow();
    const question = await db.selectFrom("question").select("id").orderBy("id").executeTakeFirstOrThrow();
    const challenge = await db.selectFrom("challenge").select("id").orderBy("id").executeTakeFirstOrThrow();
    const event = await db.selectFrom("event").select("id").orderBy("id").executeTakeFirstOrThrow();
    const paths = [
      await aDiscussion(),
      "/monastery/breath-and-stillness",
      `/forge/${creation.id}`,
      `/council/${question.id}`,
      `/challenges/${challenge.id}`,
      `/events/${event.id}`,
      "/dashboard",
      "/admin/advisors",
    ];
    const bodies: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['{"intent":"reply"}', "application/json"],
      ["intent=reply", "text/plain"],
      ["--x\r\n", "multipart/form-data"],
    ];
    for (const path of paths) {
      for (const [body, type] of bodies) {
        const res = await raw(path, cookie, body, type);
        expect(res.status, `${path} ${type}`).toBe(400);
      }
    }
  });

  it("ignores a Forge filter that names something every object has, as it ignores any unknown one", async () => {
    const all = await readable(await web.http.get("/forge"));
    for (const type of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      const res = await web.http.get(`/forge?type=${type}`);
      expect(res.status, type).toBe(200);
      const html = await readable(res);
      expect(html.match(/<h1[^>]*>(.*?)<\/h1>/)?.[1], type).toBe(all.match(/<h1[^>]*>(.*?)<\/h1>/)?.[1]);
      expect((await web.http.get(`/forge.data?type=${type}`)).status, `${type} .data`).toBe(200);
    }
  });

  it("sends a post to a discussion under a made-up topic back to the discussion's own address", async () => {
    const cookie = await joinAs("Topic Forger");
    const path = await aDiscussion();
    const ref = path.split("/").at(-1)!;
    for (const topic of ["%E2%80%AE", "%0d%0a", "no-such-topic"]) {
      const body = `Posted under ${topic}, kept all the same.`;
      const res = await web.http.post(`/monastery/${topic}/${ref}`, { intent: "reply", body, submissionKey: crypto.randomUUID() }, { cookie });
      expect(res.status, topic).toBe(302);
      expect(res.headers.get("location"), topic).toMatch(new RegExp(`^${path}\\?page=last#reply-[0-9]+$`));
      const reply = await web.site.services.db.selectFrom("reply").select("id").where("body", "=", body).executeTakeFirst();
      expect(reply, topic).toBeDefined();
      const deleted = await web.http.post(`/monastery/${topic}/${ref}`, { intent: "delete", kind: "reply", id: String(reply!.id) }, { cookie });
      expect(deleted.status, topic).toBe(302);
      expect(deleted.headers.get("location"), topic).toBe(`${path}#reply-${reply!.id}`);
    }
  });

  it("takes NUL characters out of what members write, on both engines alike, and refuses them in addresses", async () => {
    const joined = await joinOverHttp(web, "Nul\u0000Name");
    const member = await web.site.services.db.selectFrom("member").select("name").where("email", "=", joined.email).executeTakeFirstOrThrow();
    expect(member.name).toBe("NulName");
    // Nothing but NULs is an empty name, with the seed's message, not an invisible one.
    const empty = await web.http.post(
      "/join",
      { fullName: "\u0000\u0000", email: `nul2-${Date.now()}@example.org`, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" },
      joinerAddress(),
    );
    expect(empty.status).toBe(400);
    expect(await readable(empty)).toContain("Full name must be at least 2 characters");

    const { cookie } = joined;
    const path = await aDiscussion();
    const posted = await web.http.post(path, { intent: "reply", body: "Three\u0000 breaths\u0000.", submissionKey: crypto.randomUUID() }, { cookie });
    expect(posted.status).toBe(302);
    expect(await web.site.services.db.selectFrom("reply").select("id").where("body", "=", "Three breaths.").executeTakeFirst()).toBeDefined();

    for (const address of ["/council?virtue=%00", "/newsletter/confirm?token=%00", "/reset-password?token=a%00b", "/monastery/%00", "/%00"]) {
      expect((await web.http.get(address)).status, address).toBe(400);
    }
  });

  it("keys rate limits by the connection when X-Forwarded-For is not an address, however long it is", async () => {
    // 3,000 random bytes: PostgreSQL compresses a run of one letter, so a long key must not be one.
    const noise = randomBytes(3000).toString("base64url");
    const subscribed = await web.http.post("/newsletter", { email: `xff-${Date.now()}@example.org` }, { "x-forwarded-for": noise });
    expect(subscribed.status).toBe(200);
    // Made-up values are one client, the connection's: the day's sixth join from it is refused.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await web.http.post(
        "/join",
        { fullName: `Made Up ${i}`, email: `xff${i}-${Date.now()}@example.org`, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" },
        { "x-forwarded-for": `${noise.slice(0, 20)}-${i}` },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("sends a signed-out member to sign in and back to the page, not to its .data address", async () => {
    const path = await aDiscussion();
    const fromData = await web.http.post(`${path}.data`, { intent: "reply", body: "x" });
    const goTo = fromData.headers.get("location") ?? fromData.headers.get("x-remix-redirect") ?? (await fromData.text());
    expect(goTo).toContain(`/signin?redirectTo=${encodeURIComponent(path)}`);
    expect(goTo).not.toContain(".data");
    const dashboard = await web.http.get("/dashboard.data");
    const toDashboard = dashboard.headers.get("location") ?? dashboard.headers.get("x-remix-redirect") ?? (await dashboard.text());
    expect(toDashboard).toContain("/signin?redirectTo=%2Fdashboard");
    expect(toDashboard).not.toContain(".data");
  });
});
