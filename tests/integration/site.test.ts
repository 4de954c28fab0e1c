import { describe, expect, it } from "vitest";
import { cookieHeader, createTestSite, ENGINE } from "./test-services";
import { readable, siteOverHttp, startSite } from "./site-server";

const web = siteOverHttp();

const join = {
  fullName: "Grace Hopper",
  email: "grace@example.org",
  password: "Secret123",
  confirmPassword: "Secret123",
  bio: "",
  "interests.fitness": "on",
  termsAccepted: "on",
};

describe(`the site over HTTP on ${ENGINE}`, () => {
  it("renders every seed screen from the database with a 200", async () => {
    const pages: [string, string[]][] = [
      ["/", ["Enter The Monastery", "Join The Battlefield", "Mindfulness", "Morning Meditation"]],
      ["/monastery", ["The Monastery", "Create New Topic", "Stoic Philosophy", "Explore"]],
      ["/battlefield", ["The Battlefield", "Strength Training", "Form over weight: a deadlift checklist"]],
      ["/forge", ["Visual Art", "View Creation", "Share Your Creation", "Enso Series: Twelve Circles"]],
      ["/council", ["Ask a Question", "Browse by Topic", "View Unanswered", "View Question", "Mei Tanaka"]],
      ["/join", ["Join the Path", "Create Your Account", "Join the Movement", "Your Primary Interests"]],
      ["/signin", ["Welcome Back", "Enter your credentials to access your account", "Remember me", "Forgot password?"]],
      ["/monastery/morning-meditation", ["Morning Meditation", "How long did it take before sitting felt natural?"]],
      ["/manifesto", ["Our Manifesto"]],
    ];
    for (const [path, texts] of pages) {
      const res = await web.http.get(path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      for (const text of texts) expect(html, `${path} shows ${text}`).toContain(text.replaceAll("'", "&#x27;"));
    }
  });

  it("answers an unknown path with the 404 page and status 404", async () => {
    for (const path of ["/no-such-page", "/forge/999999", "/forge/abc", "/council/0", "/monastery/no-such-topic", "/battlefield/morning-meditation"]) {
      const res = await web.http.get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain("Oops! Page not found");
    }
  });

  it("redirects a trailing slash to the address without it, query kept, never to another host", async () => {
    const terms = await web.http.get("/terms/");
    expect(terms.status).toBe(301);
    expect(terms.headers.get("location")).toBe("/terms");
    const head = await fetch(web.http.base + "/forge/", { method: "HEAD", redirect: "manual" });
    expect(head.status).toBe(301);
    expect(head.headers.get("location")).toBe("/forge");
    const paged = await web.http.get("/monastery/morning-meditation/?page=last&x=%2F");
    expect(paged.status).toBe(301);
    expect(paged.headers.get("location")).toBe("/monastery/morning-meditation?page=last&x=%2F");
    // A post keeps its method through a 308.
    const posted = await web.http.post("/signin/", { email: "a@example.org", password: "x" });
    expect(posted.status).toBe(308);
    expect(posted.headers.get("location")).toBe("/signin");
    // "//evil.com" would be another host to a browser: the target is always a path here.
    for (const path of ["//evil.com/", "///evil.com//"]) {
      const evil = await web.http.get(path);
      expect(evil.status, path).toBe(301);
      expect(evil.headers.get("location"), path).toBe("/evil.com");
    }
    const home = await web.http.get("/");
    expect(home.status).toBe(200);
    expect((await web.http.get("/terms")).status).toBe(200);
  });

  it("gives every public page one canonical link, BASE_URL and its path, and a description", async () => {
    const base = web.site.services.env.BASE_URL;
    const first = async (list: string, pattern: RegExp) => (await (await web.http.get(list)).text()).match(pattern)![1]!;
    const discussion = await first("/monastery/morning-meditation", /href="(\/monastery\/morning-meditation\/[^"#?]+)"/);
    const pages: [string, string][] = [
      ...["/", "/monastery", "/battlefield", "/forge", "/council", "/events", "/challenges", "/ranks", "/join", "/signin"].map((p): [string, string] => [p, p]),
      ...["/signin/email-link", "/forgot-password", "/manifesto", "/faq", "/terms", "/privacy", "/code-of-conduct"].map((p): [string, string] => [p, p]),
      ["/monastery/morning-meditation", "/monastery/morning-meditation"],
      ["/monastery/morning-meditation?page=last&utm_source=mail", "/monastery/morning-meditation?page=last"],
      [`${discussion}?page=last&edit=discussion`, `${discussion}?page=last`],
      ["/forge?type=visual-art&utm_source=x", "/forge?type=visual-art"],
      [await first("/forge", /href="(\/forge\/\d+)"/), ""],
      [await first("/council", /href="(\/council\/\d+)"/), ""],
      [await first("/events", /href="(\/events\/\d+)"/), ""],
      [await first("/challenges", /href="(\/challenges\/\d+)"/), ""],
      [await first(discussion, /href="(\/members\/[^"]+)"/), ""],
      ["/reset-password?token=nope", "/reset-password"],
      ["/signin/link?token=nope", "/signin/link"],
      ["/settings/email?changed=1", "/settings/email"],
      ["/newsletter/confirm?token=nope", "/newsletter/confirm"],
      ["/newsletter/unsubscribe?token=nope", "/newsletter/unsubscribe"],
    ];
    for (const [path, canonical] of pages) {
      const res = await web.http.get(path);
      // A link's page with a made-up token says the link cannot be used (some with 404), described all the same.
      expect(path.includes("token=nope") ? [200, 404] : [200], path).toContain(res.status);
      const html = await res.text();
      const links = [...html.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((m) => m[1]);
      expect(links, path).toEqual([base + (canonical || path)]);
      const descriptions = [...html.matchAll(/<meta name="description" content="([^"]*)"/g)].map((m) => m[1]);
      expect(descriptions, path).toHaveLength(1);
      expect(descriptions[0]!.trim(), path).not.toBe("");
    }
  });

  it("the join form shows the password rules before submit, and a refused join lists every rule it fails (issue 26, item 9)", async () => {
    const form = await (await web.http.get("/join")).text();
    expect(form).toMatch(/<input[^>]*\bid="fullName"[^>]*>/);
    expect(form.match(/<input[^>]*\bid="fullName"[^>]*>/)![0]).toContain('type="text"');
    const password = form.match(/<input[^>]*\bid="password"[^>]*>/)![0];
    expect(password).toContain('aria-describedby="password-hint"');
    expect(form).toContain(
      '<p id="password-hint" data-slot="field-hint" class="text-sm text-muted">At least 8 characters, with at least one uppercase letter and one number.</p>',
    );

    const res = await web.http.post("/join", { ...join, password: "short", confirmPassword: "short" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html.match(/<input[^>]*\bid="password"[^>]*>/)![0]).toContain('aria-describedby="password-hint password-error"');
    const list = html.match(/<ul id="password-error"[^>]*>([\s\S]*?)<\/ul>/)?.[1] ?? "";
    expect([...list.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1])).toEqual([
      "Password must be at least 8 characters",
      "Password must contain at least one uppercase letter",
      "Password must contain at least one number",
    ]);
  });

  it("re-validates the join form on the server with the seed's messages and creates nothing", async () => {
    const res = await web.http.post("/join", { ...join, fullName: "G", email: "bad", password: "short", confirmPassword: "x", termsAccepted: "" });
    expect(res.status).toBe(400);
    const html = await res.text();
    for (const message of [
      "Full name must be at least 2 characters",
      "Please enter a valid email address",
      "Password must be at least 8 characters",
      "Passwords do not match",
      "You must accept the terms and conditions",
    ]) {
      expect(html).toContain(message);
    }
    const members = await web.site.services.db.selectFrom("member").select("id").where("name", "=", "G").execute();
    expect(members).toHaveLength(0);
  });

  it("joins, shows the success card, signs the member in, and refuses the same email again", async () => {
    const res = await web.http.post("/join", join);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Registration Successful!");
    const cookie = cookieHeader(res.headers);
    expect(cookie).toContain("ipos.session_token=");

    const dashboard = await web.http.get("/dashboard", { cookie });
    expect(dashboard.status).toBe(200);
    const html = await readable(dashboard);
    expect(html).toContain("Welcome, Grace Hopper");
    expect(html).toContain("Initiate");
    expect(html).toContain("50 XP to Acolyte");
    expect(html).toContain("Account menu for Grace Hopper");

    const again = await web.http.post("/join", { ...join, email: "GRACE@example.org" });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("An account with this email already exists");
  });

  it("sends visitors from /dashboard to sign-in and back", async () => {
    const res = await web.http.get("/dashboard");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/signin?redirectTo=%2Fdashboard");
  });

  it("signs in with a toast cookie and the page asked for; signs out only by POST", async () => {
    const res = await web.http.post("/signin", { email: join.email, password: join.password, rememberMe: "on", redirectTo: "/forge" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/forge");
    const setCookies = res.headers.getSetCookie();
    expect(setCookies.find((c) => c.startsWith("ipos.session_token="))).toMatch(/Max-Age=2592000/);
    expect(setCookies.find((c) => c.startsWith("ipos_flash="))).toContain("signed-in");
    const cookie = cookieHeader(res.headers);

    const next = await web.http.get("/forge", { cookie });
    const html = await next.text();
    expect(html).toContain("Welcome back!");
    expect(next.headers.getSetCookie().join()).toContain("ipos_flash=; Path=/; Max-Age=0");

    expect((await web.http.get("/signout", { cookie })).status).toBe(302);
    expect(await (await web.http.get("/dashboard", { cookie })).status).toBe(200);
    const out = await web.http.post("/signout", {}, { cookie });
    expect(out.status).toBe(302);
    expect((await web.http.get("/dashboard", { cookie })).status).toBe(302);
  });

  it("never redirects a sign-in to another site", async () => {
    const res = await web.http.post("/signin", { email: join.email, password: join.password, redirectTo: "//evil.example/x" });
    expect(res.headers.get("location")).toBe("/dashboard");
  });

  it("says 'Invalid email or password' for either mistake", async () => {
    for (const form of [
      { email: join.email, password: "Wrong1234" },
      { email: "nobody@example.org", password: join.password },
    ]) {
      const res = await web.http.post("/signin", form, { "x-forwarded-for": "203.0.113.7" });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("Invalid email or password");
    }
  });

  it("answers the eleventh failed sign-in from one address with 429 and the wait", async () => {
    const ip = { "x-forwarded-for": "198.51.100.23" };
    for (let i = 0; i < 10; i++) {
      expect((await web.http.post("/signin", { email: "target@example.org", password: `Wrong${i}` }, ip)).status).toBe(400);
    }
    const res = await web.http.post("/signin", { email: "target@example.org", password: "Secret123" }, ip);
    expect(res.status).toBe(429);
    expect(await res.text()).toContain("Too many attempts. Try again in 15 minutes.");
  });

  it("refuses a cross-site form post and a body over 1 MB, changing nothing", async () => {
    const forged = await web.http.post("/join", { ...join, email: "forged@example.org" }, { origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    const big = await web.http.post("/join", { ...join, email: "big@example.org", bio: "x".repeat(1024 * 1024) });
    expect(big.status).toBe(413);
    const rows = await web.site.services.db.selectFrom("member").select("id").where("email", "in", ["forged@example.org", "big@example.org"]).execute();
    expect(rows).toHaveLength(0);
  });

  it("answers a malformed or oversized field with 400, never 500", async () => {
    const long = await web.http.post("/join", { ...join, email: "long@example.org", fullName: "x".repeat(5000) });
    expect(long.status).toBe(400);
    const wrongType = await fetch(web.http.base + "/join", {
      method: "POST",
      headers: { origin: web.http.base, "content-type": "application/json" },
      body: "{}",
    });
    expect(wrongType.status).toBeLessThan(500);
  });

  it("never replays HSTS from a kept page to readers over http, whatever X-Forwarded-Proto said", async () => {
    // The site's BASE_URL is http: a page first rendered for a request that claimed https through
    // the proxy header is kept and served to everyone after it.
    const first = await web.http.get("/faq", { "x-forwarded-proto": "https" });
    expect(first.status).toBe(200);
    expect(first.headers.get("strict-transport-security")).toBeNull();
    const kept = await web.http.get("/faq");
    expect(kept.headers.get("x-page-cache")).toBe("hit");
    expect(kept.headers.get("strict-transport-security")).toBeNull();
  });

  it("reports health from the database", async () => {
    const res = await web.http.get("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });
});

describe(`when the database fails, on ${ENGINE}`, () => {
  it("shows 'Unexpected Application Error!' with status 500 and no stack trace, and health says 503", async () => {
    const broken = await createTestSite();
    const server = await startSite(broken);
    try {
      await broken.close();
      const res = await server.get("/council");
      expect(res.status).toBe(500);
      const html = await res.text();
      expect(html).toContain("Unexpected Application Error!");
      expect(html).not.toMatch(/at .*\(.*:\d+:\d+\)/);
      expect((await server.get("/healthz")).status).toBe(503);
    } finally {
      await server.close();
      await broken.destroy();
    }
  });
});
