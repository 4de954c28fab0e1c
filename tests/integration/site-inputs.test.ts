import { describe, expect, it } from "vitest";
import { cookieHeader, ENGINE } from "./test-services";
import { siteOverHttp } from "./site-server";

const web = siteOverHttp();

/** One past the largest value of a 32-bit `integer` column (PostgreSQL refuses it with an error). */
const TOO_BIG = "2147483648";
const cursor = (at: string, id: number) => Buffer.from(JSON.stringify([at, id])).toString("base64url");

let n = 0;
async function joinAs(name: string) {
  n += 1;
  const res = await web.http.post("/join", {
    fullName: name,
    email: `inputs${n}-${Date.now()}@example.org`,
    password: "Secret123",
    confirmPassword: "Secret123",
    termsAccepted: "on",
  });
  expect(res.status).toBe(200);
  return cookieHeader(res.headers);
}

async function aDiscussion() {
  const d = await web.site.services.db
    .selectFrom("discussion")
    .select(["id", "slug"])
    .where("topic_id", "=", "breath-and-stillness")
    .executeTakeFirstOrThrow();
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
    const email = `redirect-${Date.now()}@example.org`;
    const joined = await web.http.post("/join", { fullName: "Red Irect", email, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" });
    expect(joined.status).toBe(200);
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
});
