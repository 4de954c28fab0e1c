import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createTestSite, cookieHeader, ENGINE, type TestSite } from "./test-services";
import { readable, siteOverHttp, startSite } from "./site-server";

const web = siteOverHttp();

let n = 0;
async function joinAs(http: { post: typeof web.http.post }, name: string) {
  n += 1;
  const res = await http.post(
    "/join",
    { fullName: name, email: `cache${n}-${Date.now()}@example.org`, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" },
    { "x-forwarded-for": `198.51.100.${n}` },
  );
  expect(res.status).toBe(200);
  return cookieHeader(res.headers);
}

/** Starts a discussion in the Monastery as the member: a write every page about that section reads. */
async function startDiscussion(http: typeof web.http, cookie: string, title: string) {
  const path = "/monastery/breath-and-stillness/new";
  const form = await (await http.get(path, { cookie })).text();
  const submissionKey = form.match(/name="submissionKey" value="([^"]+)"/)![1]!;
  const res = await http.post(path, { title, body: "Ten breaths, then start again.", submissionKey }, { cookie });
  expect(res.status).toBe(302);
  return res.headers.get("location")!;
}

/** Raw bytes of a response, as sent (fetch would decode them). */
async function rawGet(base: string, path: string, headers: Record<string, string>) {
  const { request } = await import("node:http");
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const url = new URL(base + path);
    const req = request({ host: url.hostname, port: url.port, path, method: "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe(`the anonymous page cache on ${ENGINE}`, () => {
  it("answers the second anonymous GET from memory, in br, gzip or identity, and 304 to a matching ETag", async () => {
    const first = await web.http.get("/");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-page-cache")).toBe("miss");
    const html = await first.text();

    const br = await rawGet(web.http.base, "/", { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["x-page-cache"]).toBe("hit");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(br.headers["cache-control"]).toBe("private, no-cache");
    expect(brotliDecompressSync(br.body).toString()).toBe(html);

    const gzip = await rawGet(web.http.base, "/", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toBe(html);

    const identity = await rawGet(web.http.base, "/", {});
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body.toString()).toBe(html);
    expect(Number(identity.headers["content-length"])).toBe(identity.body.length);

    const etag = br.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(gzip.headers.etag).not.toBe(etag);
    const revalidated = await web.http.get("/", { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    const changed = await web.http.get("/", { "if-none-match": '"something-else"' });
    expect(changed.status).toBe(200);

    const head = await fetch(web.http.base + "/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-page-cache")).toBe("hit");
    expect(await head.text()).toBe("");
  });

  it("sends the same security headers, with the cached page's inline scripts named by hash and no nonce at all", async () => {
    await web.http.get("/");
    const hits = [await web.http.get("/"), await web.http.get("/")];
    for (const hit of hits) expect(hit.headers.get("x-page-cache")).toBe("hit");
    const [a, b] = hits as [Response, Response];
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
    const csp = a.headers.get("content-security-policy")!;
    expect(csp).not.toContain("nonce-");
    const html = await a.text();
    // Every inline script (React Router's hydration data and loaders) is allowed by its hash; a
    // JSON-LD data block is never run and needs none (ADR 0062).
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attrs]) => !/\bsrc=/.test(attrs!) && !/type="application\/ld\+json"/.test(attrs!),
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const [, , content] of inline) {
      expect(csp).toContain(`'sha256-${createHash("sha256").update(content!).digest("base64")}'`);
    }
    expect(html).not.toMatch(/nonce="[^"]+"/);
    const other = await web.http.get("/signin");
    for (const name of ["x-content-type-options", "x-frame-options", "referrer-policy", "cross-origin-opener-policy", "permissions-policy"]) {
      expect(a.headers.get(name), name).toBe(other.headers.get(name));
    }
    expect(csp.replace(/script-src [^;]+/, "")).toBe(other.headers.get("content-security-policy")!.replace(/script-src [^;]+/, ""));
  });

  it("never serves a member the visitors' page, nor a member's page to a visitor", async () => {
    const cookie = await joinAs(web.http, "Cached Carla");
    // Joining changes no public page (it says so with wroteNothingPublic): `/` stays kept for visitors.
    await web.http.get("/");
    expect((await web.http.get("/")).headers.get("x-page-cache")).toBe("hit");

    // Any Cookie header is another key (ADR 0040): Carla's `/` is rendered for her.
    const mine = await web.http.get("/", { cookie });
    expect(mine.headers.get("x-page-cache")).toBe("miss");
    expect(await readable(mine)).toContain("Account menu for Cached Carla");

    web.http.front.pageCache!.clear();
    await web.http.get("/", { cookie });
    await web.http.get("/", { cookie });
    const anonymous = await web.http.get("/");
    expect(anonymous.headers.get("x-page-cache")).toBe("miss");
    expect(await readable(anonymous)).not.toContain("Cached Carla");
  });

  it("shows a flash toast on `/` although `/` is cached (a flash cookie is another key, and its page is never kept)", async () => {
    const cookie = await joinAs(web.http, "Flash Fran");
    await web.http.get("/");
    expect((await web.http.get("/")).headers.get("x-page-cache")).toBe("hit");
    // Deleting the account signs out and leaves only the flash cookie for the redirected `/`.
    const gone = await web.http.post("/settings?intent=delete", { currentPassword: "Secret123" }, { cookie });
    expect(gone.status).toBe(302);
    const flash = cookieHeader(gone.headers);
    expect(flash).toBe("ipos_flash=account-deleted");
    const home = await web.http.get(gone.headers.get("location")!, { cookie: flash });
    expect(home.headers.get("x-page-cache")).toBe("miss");
    const html = await readable(home);
    expect(html).toContain("Your account is deleted");
    expect(html).not.toContain("Flash Fran");
    // The toast is shown once: the next anonymous `/` has none.
    await web.http.get("/");
    const later = await web.http.get("/");
    expect(later.headers.get("x-page-cache")).toBe("hit");
    expect(await readable(later)).not.toContain("Your account is deleted");
  });

  it("lets a form on a cached page post, and still refuses a cross-origin post", async () => {
    await web.http.get("/");
    const page = await web.http.get("/");
    expect(page.headers.get("x-page-cache")).toBe("hit");
    expect(await page.text()).toContain('action="/newsletter"');
    const ok = await web.http.post("/newsletter", { email: `reader-${Date.now()}@example.org` }, { "x-forwarded-for": "203.0.113.50" });
    expect(ok.status).toBe(200);
    const forged = await web.http.post("/newsletter", { email: "forged@example.org" }, { origin: "https://evil.example" });
    expect(forged.status).toBe(403);
  });

  it("drops `/` at once after a new discussion, and keeps it through a refused write", async () => {
    const cookie = await joinAs(web.http, "Writer Wu");
    await web.http.get("/");
    expect((await web.http.get("/")).headers.get("x-page-cache")).toBe("hit");
    // A refused write (400) changes nothing, so nothing is dropped.
    expect((await web.http.post("/newsletter", { email: "not an address" }, { "x-forwarded-for": "203.0.113.51" })).status).toBe(400);
    expect((await web.http.get("/")).headers.get("x-page-cache")).toBe("hit");

    await startDiscussion(web.http, cookie, "Cache-busting breaths");
    expect((await web.http.get("/")).headers.get("x-page-cache")).toBe("miss");
  });

  it("keeps a page by its route's policy: a static one until a site-wide write, a data request as its page", async () => {
    const cookie = await joinAs(web.http, "Policy Pam");
    const state = async (path: string) => (await web.http.get(path)).headers.get("x-page-cache");
    // The home page's client-side navigation data (`/_.data`) is the home route's, kept by its tags.
    for (const path of ["/ranks", "/terms", "/join", "/signin", "/signin/email-link", "/forgot-password", "/_.data"]) {
      await web.http.get(path);
      expect(await state(path), path).toBe("hit");
    }
    await startDiscussion(web.http, cookie, "A write of the Monastery's tags");
    expect(await state("/_.data")).toBe("miss");
    // Kept under `site` alone, whatever their loaders named: a tagged write leaves them.
    expect(await state("/ranks")).toBe("hit");
    expect(await state("/terms")).toBe("hit");
    expect(await state("/signin")).toBe("hit");
  });

  it("counts a visitor's view of a question served from memory, once per address and day, and the visitor sees it", async () => {
    const { id } = await web.site.services.db.selectFrom("question").select("id").orderBy("id").limit(1).executeTakeFirstOrThrow();
    const views = async () =>
      (await web.site.services.db.selectFrom("question").select("view_count").where("id", "=", id).executeTakeFirstOrThrow()).view_count;
    const path = `/council/${id}`;
    const shown = async (address: string) => {
      const res = await web.http.get(path, { "x-forwarded-for": address });
      const count = (await res.text()).match(/(\d+) views?</)?.[1];
      return { cache: res.headers.get("x-page-cache"), count: Number(count) };
    };
    const before = await views();
    expect((await shown("203.0.113.71")).cache).toBe("miss");
    await expect.poll(views).toBe(before + 1);
    // The counted view dropped the page: the visitor's reload shows it, and then it is kept.
    await expect.poll(async () => (await shown("203.0.113.71")).count, { timeout: 5000 }).toBe(before + 1);
    expect(await shown("203.0.113.71")).toEqual({ cache: "hit", count: before + 1 });
    // New visitors served from memory are views too, and the page catches up within the window.
    for (const address of ["203.0.113.72", "203.0.113.73", "203.0.113.72"]) await shown(address);
    await expect.poll(views).toBe(before + 3);
    await expect.poll(async () => (await shown("203.0.113.72")).count, { timeout: 5000 }).toBe(before + 3);
    expect(await shown("203.0.113.73")).toEqual({ cache: "hit", count: before + 3 });
  });

  it("bypasses health checks, media, assets and query strings get entries of their own", async () => {
    expect((await web.http.get("/healthz")).headers.get("x-page-cache")).toBe("bypass");
    await web.http.get("/?utm=1");
    expect((await web.http.get("/?utm=1")).headers.get("x-page-cache")).toBe("hit");
    expect((await web.http.get("/?utm=2")).headers.get("x-page-cache")).toBe("miss");
    // A page that declares nothing it reads is never kept (the safe default): a reset link's page
    // depends on its token, which no tag describes.
    expect((await web.http.get("/reset-password?token=unknown")).status).toBe(200);
    expect((await web.http.get("/reset-password?token=unknown")).headers.get("x-page-cache")).toBe("miss");
  });
});

// Several instances exist only on PostgreSQL: on SQLite one process owns the file and bumps locally.
if (ENGINE === "postgres")
  describe("the page cache across two instances on PostgreSQL", () => {
    let site: TestSite;
    let a: Awaited<ReturnType<typeof startSite>>;
    let b: Awaited<ReturnType<typeof startSite>>;
    let second: TestSite;
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await second?.close();
      await site?.destroy();
    });

    async function until(check: () => Promise<boolean> | boolean, what: string) {
      const deadline = Date.now() + 5000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    }

    it("a write through instance B makes instance A's cached page miss (LISTEN/NOTIFY)", async () => {
      site = await createTestSite();
      const { insertDemoContent } = await import("~/.server/db/demo-content");
      await insertDemoContent(site.services.db);
      second = await site.another();
      a = await startSite(site);
      b = await startSite(second);
      const cookie = await joinAs(b, "Instance Ines");
      await until(async () => (await a.get("/")).headers.get("x-page-cache") === "hit", "A to cache /");
      await startDiscussion(b, cookie, "Written on B");
      await until(async () => (await a.get("/")).headers.get("x-page-cache") !== "hit", "A to drop /");
    });

    it("serves nothing from memory while the listener is down, and drops everything once it is back", async () => {
      const cookie = await joinAs(b, "Dropped Dana");
      await until(async () => (await a.get("/")).headers.get("x-page-cache") === "hit", "A to cache /");
      const pid = (a.front.bus as { backendPid(): number | undefined }).backendPid();
      expect(pid).toBeGreaterThan(0);
      await sql`select pg_terminate_backend(${pid})`.execute(site.services.db);
      await until(() => !(a.front.bus as { listening(): boolean }).listening(), "A to notice the drop");
      // B's write while A cannot hear it: its notification is lost.
      await startDiscussion(b, cookie, "Written while A was deaf");
      expect((await a.get("/")).headers.get("x-page-cache")).not.toBe("hit");
      await until(() => (a.front.bus as { listening(): boolean }).listening(), "A to listen again");
      const after = await a.get("/");
      expect(after.headers.get("x-page-cache")).toBe("miss");
    });
  });
