import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { createServer, request, type Server } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { EventEmitter } from "node:events";
import compression from "compression";
import express, { type Request, type Response } from "express";
import type { CompiledQuery, QueryResult } from "kysely";
import { data, redirect, type ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { changedByRead, currentPageTags, readsFrom, tag, withPageTags, wrote, wroteNothingPublic, type PageTags } from "~/.server/cache/page-tags";
import type { CachePolicy } from "~/.server/cache/route-policies";
import { checkAuditFile } from "../tests/e2e/support/page-cache-audit-teardown";
import { CacheAudit, keptPageViolations, sqlTables, writeViolations } from "./page-cache/audit";
import { DEVICE_COOKIE } from "~/.server/domain/accounts/trusted-devices";
import {
  countWriteHandlers,
  eligibility,
  etagFor,
  inlineScriptHashes,
  memberKey,
  notModified,
  PageCache,
  pageCacheFront,
  pageCapture,
  pageTagsMiddleware,
  pickEncoding,
} from "./page-cache";
import { RECOMPRESS_AFTER_HITS } from "./page-cache/store";

const html = (text: string) => Buffer.from(`<!doctype html><p>${text}</p>`);

function store(cache: PageCache, key: string, reads: string[], startSeq = cache.sequence(), body = html(key)) {
  return cache.set({ key, status: 200, headers: { "content-type": "text/html" }, body, reads, startSeq });
}

describe("the page store", () => {
  it("keeps a page until a tag it read is written, and ignores writes of other tags", () => {
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20 });
    store(cache, "/a", [tag.topic("t1"), tag.member("m1")]);
    store(cache, "/b", [tag.topic("t2")]);
    cache.bump([tag.topic("t2")]);
    expect(cache.get("/a")).toBeDefined();
    expect(cache.get("/b")).toBeUndefined();
    cache.bump([tag.member("m1")]);
    expect(cache.get("/a")).toBeUndefined();
  });

  it("drops everything on a write with no tags or with `site`, and nothing on `-` alone", () => {
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20 });
    store(cache, "/a", [tag.forge]);
    cache.bump([tag.nothing]);
    expect(cache.get("/a")).toBeDefined();
    cache.bump([]);
    expect(cache.get("/a")).toBeUndefined();
    store(cache, "/a", [tag.forge]);
    cache.bump([tag.site]);
    expect(cache.size).toBe(0);
    expect(cache.storedBytes).toBe(0);
  });

  it("refuses a page whose request began before a write of something it read", () => {
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20 });
    const began = cache.sequence();
    cache.bump([tag.council]);
    expect(store(cache, "/council", [tag.council], began)).toBeUndefined();
    expect(store(cache, "/forge", [tag.forge], began)).toBeDefined();
  });

  it("drops a page at once for a read's change, then at most once per window, with one trailing drop", () => {
    vi.useFakeTimers();
    try {
      const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20, now: () => Date.now() });
      store(cache, "/q", [tag.question(1)]);
      cache.bumpSoon([tag.question(1)], 2000);
      expect(cache.get("/q")).toBeUndefined();
      store(cache, "/q", [tag.question(1)]);
      vi.advanceTimersByTime(500);
      cache.bumpSoon([tag.question(1)], 2000);
      cache.bumpSoon([tag.question(1)], 2000);
      expect(cache.get("/q")).toBeDefined();
      vi.advanceTimersByTime(1499);
      expect(cache.get("/q")).toBeDefined();
      vi.advanceTimersByTime(1);
      expect(cache.get("/q")).toBeUndefined();
      // A new window: the next change drops at once again.
      store(cache, "/q", [tag.question(1)]);
      vi.advanceTimersByTime(2000);
      cache.bumpSoon([tag.question(1)], 2000);
      expect(cache.get("/q")).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it("forgets written tags no stored page needs, keeping pages valid and refusing requests that began before", () => {
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20, maxWrittenTags: 100 });
    const inFlight = cache.sequence();
    for (let i = 2; i <= 96; i++) cache.bump([tag.discussion(i)]);
    store(cache, "/kept", [tag.topic("t1"), tag.discussion(1)]);
    for (let i = 97; i <= 102; i++) cache.bump([tag.discussion(i)]);
    // The 101st tag: the 95 written before the oldest page are forgotten, the 6 after it kept.
    expect(cache.writtenTags).toBe(6);
    // The page read none of what was written: still served.
    expect(cache.get("/kept")).toBeDefined();
    // A write of what it read still drops it, after the forgetting.
    store(cache, "/other", [tag.discussion(9999)]);
    cache.bump([tag.discussion(9999)]);
    expect(cache.get("/other")).toBeUndefined();
    // A request that began before forgotten writes cannot be checked against them: refused.
    expect(store(cache, "/late", [tag.discussion(300)], inFlight)).toBeUndefined();
    expect(store(cache, "/fresh", [tag.discussion(300)])).toBeDefined();
    cache.bump([tag.topic("t1")]);
    expect(cache.get("/kept")).toBeUndefined();
    expect(cache.get("/fresh")).toBeDefined();
  });

  it("drops everything when an old page pins more written tags than it may remember", () => {
    let now = 0;
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20, maxWrittenTags: 100, now: () => now });
    store(cache, "/old", [tag.forge]);
    for (let i = 1; i <= 101; i++) cache.bump([tag.discussion(i)]);
    expect(cache.writtenTags).toBe(0);
    expect(cache.get("/old")).toBeUndefined();
    // An expired page does not pin anything: it is dropped and the tags before it forgotten.
    store(cache, "/expired", [tag.forge]);
    for (let i = 1; i <= 60; i++) cache.bump([tag.discussion(i)]);
    now += 60_000;
    store(cache, "/live", [tag.council]);
    for (let i = 61; i <= 101; i++) cache.bump([tag.discussion(i)]);
    expect(cache.writtenTags).toBe(41);
    expect(cache.get("/live")).toBeDefined();
  });

  it("serves nothing older than the TTL", () => {
    let now = 1000;
    const cache = new PageCache({ ttlMs: 500, maxBytes: 1 << 20, now: () => now });
    store(cache, "/", [tag.forge]);
    now += 499;
    expect(cache.get("/")).toBeDefined();
    now += 1;
    expect(cache.get("/")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("evicts the least recently used pages to stay within its bytes", () => {
    const body = Buffer.from(Array.from({ length: 4000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join(""));
    const probe = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 30 });
    const one = store(probe, "/1", [tag.forge], 0, body)!.bytes;
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: one * 3 + 10 });
    store(cache, "/1", [tag.forge], 0, body);
    store(cache, "/2", [tag.forge], 0, body);
    store(cache, "/3", [tag.forge], 0, body);
    expect(cache.get("/1")).toBeDefined(); // now the most recent
    store(cache, "/4", [tag.forge], 0, body);
    expect(cache.get("/2")).toBeUndefined();
    expect(cache.get("/1")).toBeDefined();
    expect(cache.size).toBe(3);
    expect(cache.storedBytes).toBeLessThanOrEqual(cache.maxBytes);
  });

  it("refuses a body over the entry bound, and serves nothing while untrusted", () => {
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 30, maxEntryBytes: 100 });
    expect(store(cache, "/big", [tag.forge], 0, Buffer.alloc(101, "x"))).toBeUndefined();
    expect(store(cache, "/small", [tag.forge], 0, Buffer.alloc(100, "x"))).toBeDefined();
    cache.setTrusted(false);
    expect(cache.get("/small")).toBeUndefined();
    expect(store(cache, "/other", [tag.forge], 0)).toBeUndefined();
  });

  it("keeps a member's page until their own tag is written or their session's time is up, compressing it on first need", () => {
    let now = 1_000;
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20, now: () => now });
    const viewer = { memberId: "m1", token: "t", fingerprint: "f", until: 5_000 };
    const body = html("Ada's page ".repeat(200));
    const kept = cache.set({ key: memberKey("/a", "s=1"), status: 200, headers: {}, body, reads: [tag.forge], startSeq: cache.sequence(), viewer })!;
    expect(kept.reads).toEqual([tag.forge, tag.viewer("m1")]);
    expect(Object.keys(kept.bodies)).toEqual(["identity"]);
    const before = cache.storedBytes;
    const br = cache.body(kept, "br");
    expect(brotliDecompressSync(br).equals(body)).toBe(true);
    expect(cache.body(kept, "br")).toBe(br);
    // Brotli made, the identity bytes are let go: they are made again from it when asked for.
    expect(cache.storedBytes).toBe(before + br.length - body.length);

    cache.bump([tag.viewer("m2")]);
    expect(cache.get(memberKey("/a", "s=1"))).toBeDefined();
    cache.bump([tag.viewer("m1")]);
    expect(cache.get(memberKey("/a", "s=1"))).toBeUndefined();

    cache.set({ key: memberKey("/a", "s=1"), status: 200, headers: {}, body, reads: [tag.forge], startSeq: cache.sequence(), viewer });
    now = 4_999;
    expect(cache.get(memberKey("/a", "s=1"))).toBeDefined();
    now = 5_000;
    expect(cache.get(memberKey("/a", "s=1"))).toBeUndefined();
  });

  it("keeps a visitor's page as its identity bytes and makes each encoding only when a client first asks for it (issue 29)", () => {
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20 });
    const body = html("A discussion read by many. ".repeat(400));
    const kept = store(cache, "/d", [tag.forge], cache.sequence(), body)!;
    // No compression at the miss: a page the next write drops before its second reader cost none.
    expect(Object.keys(kept.bodies)).toEqual(["identity"]);
    expect(kept.bytes).toBe(body.length + "/d".length);
    const gzip = cache.body(kept, "gzip");
    expect(gunzipSync(gzip).equals(body)).toBe(true);
    expect(Object.keys(kept.bodies).sort()).toEqual(["gzip", "identity"]);
    const br = cache.body(kept, "br");
    expect(brotliDecompressSync(br).equals(body)).toBe(true);
    // Made once, then served as kept, and counted in the bytes the LRU bounds; with brotli made the
    // identity bytes are let go, and a client that wants them gets them decoded from it.
    expect(cache.body(kept, "br")).toBe(br);
    expect(Object.keys(kept.bodies).sort()).toEqual(["br", "gzip"]);
    expect(cache.storedBytes).toBe("/d".length + gzip.length + br.length);
    expect(cache.body(kept, "identity").equals(body)).toBe(true);
    expect(cache.storedBytes).toBe("/d".length + gzip.length + br.length);
  });

  it("keeps five times the pages in the same bytes once brotli is made, and serves every encoding of them", () => {
    const page = (n: number) => html(Array.from({ length: 800 }, (_, i) => `<p class="r${(i * n) % 89}">reply ${i} of page ${n}</p>`).join(""));
    const size = page(0).length;
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: size * 4 });
    const keys = Array.from({ length: 20 }, (_, n) => `/d/${n}`);
    for (const [n, key] of keys.entries()) cache.body(store(cache, key, [tag.forge], cache.sequence(), page(n))!, "br", { quick: true });
    // Twenty pages of which four would fit as identity bytes.
    for (const [n, key] of keys.entries()) {
      const entry = cache.get(key);
      expect(entry, key).toBeDefined();
      expect(brotliDecompressSync(cache.body(entry!, "br")).equals(page(n))).toBe(true);
      expect(cache.body(entry!, "identity").equals(page(n))).toBe(true);
    }
    // A gzip client's bytes are made from brotli too, and kept beside them.
    const last = cache.get(keys.at(-1)!)!;
    expect(gunzipSync(cache.body(last, "gzip")).equals(page(keys.length - 1))).toBe(true);
    expect(Object.keys(last.bodies).sort()).toEqual(["br", "gzip"]);
  });

  it("holds each kept encoding in memory of its own length, not in a slice of zlib's chunk or Node's pool (issue 29)", async () => {
    // zlib's synchronous calls answer with a view of their 64 KiB output chunk: kept as it came, a
    // page of 15 KB held 64 KiB and the budget, which counts lengths, was a quarter of the truth.
    const owned = (bytes: Buffer | undefined) => {
      expect(bytes).toBeDefined();
      expect(bytes!.byteOffset).toBe(0);
      expect(bytes!.buffer.byteLength).toBe(bytes!.length);
    };
    const words = Array.from({ length: 2000 }, (_, i) => `<p class="r${i % 89}">reply ${(i * 7919) % 1009}</p>`);
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 22 });
    const page = store(cache, "/d", [tag.forge], cache.sequence(), html(words.join("")))!;
    owned(page.bodies.identity);
    owned(cache.body(page, "br", { quick: true }));
    owned(page.bodies.br);
    owned(cache.body(page, "gzip", { quick: true }));
    // The kept level, made on zlib's pool once the page is read often.
    const quick = page.bodies.br;
    for (let hit = 0; hit < RECOMPRESS_AFTER_HITS; hit++) cache.body(page, "br");
    await vi.waitFor(() => expect(page.bodies.br).not.toBe(quick));
    owned(page.bodies.br);
    // A small body (a client-side navigation's data) is no slice of the shared pool either.
    const small = Buffer.from("x".repeat(600));
    expect(small.buffer.byteLength).toBeGreaterThan(small.length);
    owned(store(cache, "/d.data", [tag.forge], cache.sequence(), small)!.bodies.identity);
  });

  it("answers a miss at the quick level and makes the kept level off the event loop once the page is read often", async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `<p class="reply r${i % 97}">word ${(i * 7919) % 1009} and ${(i * 104729) % 613}</p>`);
    const body = html(words.join(""));
    for (const encoding of ["br", "gzip"] as const) {
      const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20 });
      const kept = store(cache, "/d", [tag.forge], cache.sequence(), body)!;
      const decode = encoding === "br" ? brotliDecompressSync : gunzipSync;
      const quick = cache.body(kept, encoding, { quick: true });
      expect(decode(quick).equals(body)).toBe(true);
      // Hits are served the bytes there are; the one that makes the page read often sets the kept
      // level's making going, and none before it does.
      for (let hit = 1; hit < RECOMPRESS_AFTER_HITS; hit++) expect(cache.body(kept, encoding)).toBe(quick);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(kept.bodies[encoding]).toBe(quick);
      expect(cache.body(kept, encoding)).toBe(quick);
      await vi.waitFor(() => expect(kept.bodies[encoding]).not.toBe(quick));
      const better = kept.bodies[encoding]!;
      expect(decode(better).equals(body)).toBe(true);
      expect(better.length).toBeLessThan(quick.length);
      // Made once: later hits are served it as it is.
      expect(cache.body(kept, encoding)).toBe(better);
      // What the LRU bounds counts the bytes kept now, not the quick ones they replaced (nor the
      // identity bytes, let go once brotli was made).
      expect(cache.storedBytes - "/d".length).toBe(better.length + (kept.bodies.identity?.length ?? 0));
    }
  });

  it("picks br over gzip over identity, honouring q=0", () => {
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip")).toBe("gzip");
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("identity")).toBe("identity");
    expect(pickEncoding(undefined)).toBe("identity");
    // The assets' parser's answer too (one parser): gzip weighed higher wins over brotli.
    expect(pickEncoding("br;q=0.2, gzip;q=0.8")).toBe("gzip");
    // Refusing everything still gets the page itself, never a 406.
    expect(pickEncoding("identity;q=0, *;q=0")).toBe("identity");
  });

  it("names each variant with a strong ETag and matches any of them", () => {
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20 });
    const entry = store(cache, "/", [tag.forge])!;
    const tags = (["br", "gzip", "identity"] as const).map((e) => etagFor(entry, e));
    expect(new Set(tags).size).toBe(3);
    for (const t of tags) expect(notModified(entry, `"nope", ${t}`)).toBe(true);
    expect(notModified(entry, '"nope"')).toBe(false);
    expect(notModified(entry, undefined)).toBe(false);
    const other = store(cache, "/x", [tag.forge], cache.sequence(), html("other"))!;
    expect(other.etag).not.toBe(entry.etag);
  });

  it("hashes inline scripts only, not JSON-LD data blocks, which never run", () => {
    const hashes = inlineScriptHashes(
      '<script nonce="">window.a=1</script><script type="module" src="/x.js"></script><script>b()</script><script id="x" type="application/ld+json">{"a":1}</script>',
    );
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
    // Each script's text exactly as sent, multi-byte characters included; `<scripts>` is no script.
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
    const page = '<p>é</p><scripts>no()</scripts><script>window.title="Stillness · ✓"</script><script\nnonce="">x()</script><p>ü</p>';
    expect(inlineScriptHashes(Buffer.from(page))).toEqual([sha('window.title="Stillness · ✓"'), sha("x()")]);
    expect(inlineScriptHashes("<script>unclosed()")).toEqual([]);
  });

  it("tells a visitor's GET or HEAD of a page from a member's, and lets nothing else through", () => {
    const req = (method: string, url: string, headers: Record<string, string> = {}) => ({ method, url, headers }) as never;
    expect(eligibility(req("GET", "/"))).toBe("visitor");
    expect(eligibility(req("HEAD", "/council?page=2"))).toBe("visitor");
    expect(eligibility(req("POST", "/"))).toBeNull();
    expect(eligibility(req("GET", "/", { cookie: "ipos_flash=signed-in" }))).toBe("member");
    expect(eligibility(req("GET", "/", { cookie: "" }))).toBe("member");
    // The trusted-device cookie stays after sign-out and no page reads it (ADR 0042).
    expect(eligibility(req("GET", "/", { cookie: `${DEVICE_COOKIE}=${"a".repeat(43)}` }))).toBe("visitor");
    expect(eligibility(req("GET", "/", { cookie: `${DEVICE_COOKIE}=x; ipos.session_token=y` }))).toBe("member");
    expect(eligibility(req("GET", "/", { cookie: `ipos_flash=signed-out; ${DEVICE_COOKIE}=x` }))).toBe("member");
    expect(eligibility(req("GET", "/", { cookie: `${DEVICE_COOKIE}x=1` }))).toBe("member");
    expect(eligibility(req("POST", "/", { cookie: "a=b" }))).toBeNull();
    expect(eligibility(req("GET", "/", { authorization: "Bearer x" }))).toBeNull();
    for (const path of ["/healthz", "/readyz", "/media/a.jpg", "/assets/app.js"]) expect(eligibility(req("GET", path))).toBeNull();
    // A member's key can never be a visitor's (an address starts with "/"), nor another cookie's.
    expect(memberKey("/", "a=b")).not.toBe(memberKey("/", "a=c"));
    expect(memberKey("/", "a=b").startsWith("/")).toBe(false);
  });
});

describe("the front and the write bump over HTTP", () => {
  let server: Server;
  let base: string;
  const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20 });
  let renders = 0;

  beforeAll(async () => {
    const app = express();
    app.use(pageTagsMiddleware(cache));
    // What server/app.ts does with the build's routes: the route's policy on the request's tags.
    const policies: Record<string, CachePolicy> = { page: "tags", undeclared: "tags", static: "static", never: "never" };
    app.use((req, _res, next) => {
      const id = req.path.split("/")[1]!;
      currentPageTags()!.route = { id, policy: policies[id] };
      next();
    });
    app.use(pageCapture(cache, { https: false, development: false }));
    app.get(["/static", "/never", "/missing"], (_req, res) => {
      renders += 1;
      readsFrom(tag.topic("1"));
      res.type("html").send(`<p>render ${renders}</p>`);
    });
    app.get("/page/:id", (req, res) => {
      renders += 1;
      readsFrom(tag.topic(req.params.id));
      res.type("html").send(`<p>page ${req.params.id} render ${renders}</p><script nonce="${res.locals.nonce}">1</script>`);
    });
    app.get("/undeclared", (_req, res) => void res.type("html").send("<p>nothing declared</p>"));
    app.post("/write/:id", (req, res) => {
      wrote(tag.topic(req.params.id));
      res.redirect(303, `/page/${req.params.id}`);
    });
    app.post("/untagged", (_req, res) => void res.send("ok"));
    app.post("/private", (_req, res) => {
      wroteNothingPublic();
      res.send("ok");
    });
    app.post("/refused", (_req, res) => {
      wrote(tag.topic("1"));
      res.status(400).send("no");
    });
    server = createServer(pageCacheFront({ cache, app }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const state = async (path: string) => (await fetch(base + path)).headers.get("x-page-cache");
  const post = (path: string) => fetch(base + path, { method: "POST", redirect: "manual" });

  it("stores what declared its reads, never what did not", async () => {
    expect(await state("/page/1")).toBe("miss");
    expect(await state("/page/1")).toBe("hit");
    expect(await state("/undeclared")).toBe("miss");
    expect(await state("/undeclared")).toBe("miss");
  });

  it("keeps by the route's policy: static under `site` alone, never and a route missing from the table not at all", async () => {
    for (const path of ["/static", "/never", "/missing"]) expect(await state(path)).toBe("miss");
    expect(await state("/static")).toBe("hit");
    // Kept under `site`, not under what its loader named: a write of that tag leaves it.
    expect((await post("/write/1")).status).toBe(303);
    expect(await state("/static")).toBe("hit");
    // Though they read a tag, as a kept page would.
    expect(await state("/never")).toBe("miss");
    expect(await state("/missing")).toBe("miss");
    expect((await post("/untagged")).status).toBe(200);
    expect(await state("/static")).toBe("miss");
  });

  it("a write drops the pages that read what it wrote, a redirect counts, a refused write does not", async () => {
    await state("/page/1");
    await state("/page/2");
    expect(await state("/page/2")).toBe("hit");
    expect((await post("/refused")).status).toBe(400);
    expect(await state("/page/1")).toBe("hit");
    expect((await post("/write/1")).status).toBe(303);
    expect(await state("/page/1")).toBe("miss");
    expect(await state("/page/2")).toBe("hit");
  });

  it("a write without tags drops everything; one that changed nothing public drops nothing", async () => {
    await state("/page/3");
    expect(await state("/page/3")).toBe("hit");
    expect((await post("/private")).status).toBe(200);
    expect(await state("/page/3")).toBe("hit");
    expect((await post("/untagged")).status).toBe(200);
    expect(await state("/page/3")).toBe("miss");
    expect(await state("/page/2")).toBe("miss");
  });

  it("renders a stored page with an empty nonce and names its script by hash", async () => {
    await post("/untagged");
    const res = await fetch(base + "/page/9");
    const body = await res.text();
    expect(body).toContain('<script nonce="">1</script>');
    expect(res.headers.get("content-security-policy")).toContain(inlineScriptHashes(body)[0]!);
  });
});

describe("a page held back and not kept (issue 29)", () => {
  let server: Server;
  let base: string;
  const page = `<!doctype html><main>${"<p>Breath, posture, patience.</p>".repeat(200)}</main>`;

  beforeAll(async () => {
    const app = express();
    const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20 });
    app.use(pageTagsMiddleware(cache));
    app.use((_req, _res, next) => {
      currentPageTags()!.route = { id: "never", policy: "never" };
      next();
    });
    // As server/app.ts mounts them: compression() first, the capture after it.
    app.use(compression());
    app.use(pageCapture(cache, { https: false, development: false }));
    app.get("/never", (_req, res) => void res.type("html").send(page));
    app.get("/small", (_req, res) => void res.type("html").send("<p>small</p>"));
    server = createServer(pageCacheFront({ cache, app }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string, acceptEncoding?: string) =>
    new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = request(base + path, { headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });

  it("is compressed at once, with its length, not streamed through zlib's thread pool", async () => {
    const br = await get("/never", "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    // compression()'s stream sends chunks without a length; the page compressed at once has one.
    expect(br.headers["content-length"]).toBe(String(br.body.length));
    expect(br.headers["transfer-encoding"]).toBeUndefined();
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).toString()).toBe(page);
    const gz = await get("/never", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(page);
  });

  it("goes as it is to a client that takes no encoding, and when it is small", async () => {
    const plain = await get("/never");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
    const small = await get("/small", "br");
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body.toString()).toBe("<p>small</p>");
  });
});

describe("a write whose client went away before its head", () => {
  let server: Server;
  let base: string;
  const cache = new PageCache({ ttlMs: 60_000, maxBytes: 1 << 20 });

  /** One write at a time, held by the test at each step. */
  let held = steps();
  function steps() {
    return {
      /** The action has begun, or the body's first bytes came. */
      started: Promise.withResolvers<void>(),
      /** Lets the action end, with what `outcome` says. */
      release: Promise.withResolvers<() => unknown>(),
      /** The action has ended (and the request's handlers with it). */
      ended: Promise.withResolvers<void>(),
      /** Lets the app write its head (it never comes when the client left first). */
      answer: Promise.withResolvers<void>(),
      /** The server has seen the socket close. */
      closed: Promise.withResolvers<void>(),
    };
  }

  // A route's action as the server build holds it, counted as the site counts it (server/app.ts).
  const build = countWriteHandlers({
    routes: {
      write: {
        id: "write",
        module: {
          async action() {
            held.started.resolve();
            return (await held.release.promise)();
          },
        },
      },
    },
  } as unknown as ServerBuild);
  const action = build.routes.write!.module.action as unknown as () => Promise<unknown>;

  beforeAll(async () => {
    const app = express();
    app.use(pageTagsMiddleware(cache));
    app.use((_req, res, next) => {
      res.once("close", () => held.closed.resolve());
      next();
    });
    app.post("/write", async (_req, res) => {
      await action().catch(() => undefined);
      held.ended.resolve();
      await held.answer.promise;
      if (!res.destroyed) res.send("done");
    });
    app.post("/upload", (req, res) => {
      req.once("data", () => held.started.resolve());
      req.on("end", async () => {
        await action();
        res.send("done");
      });
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Posts a write, waits for its action to begin, and goes away. */
  async function postAndLeave() {
    held = steps();
    const client = new AbortController();
    const posting = fetch(base + "/write", { method: "POST", body: "a=1", signal: client.signal }).catch((error: unknown) => error);
    await held.started.promise;
    client.abort();
    expect(await posting).toBeInstanceOf(Error);
    await held.closed.promise;
  }

  /** Lets the held action end as `outcome` says and waits until it has. */
  async function end(outcome: () => unknown) {
    held.release.resolve(outcome);
    await held.ended.promise;
  }

  /** Two pages kept before the write: one reads the topic some writes name, one reads nothing written. */
  function keepPages() {
    store(cache, "/named", [tag.topic("named")]);
    store(cache, "/unrelated", [tag.topic("unrelated")]);
  }
  const kept = () => ({ named: cache.get("/named") !== undefined, unrelated: cache.get("/unrelated") !== undefined });

  const refusals: [string, () => unknown][] = [
    ["data() with 400", () => data("Please check the form.", { status: 400 })],
    ["a Response with 403", () => new Response("no", { status: 403 })],
    ["a thrown error", () => Promise.reject(new Error("failed"))],
    ["a thrown data() with 404", () => Promise.reject(data("Not found", { status: 404 }))],
  ];

  it.each(refusals)("an action that refused (%s) bumps nothing, at the close or after it ends", async (_name, refusal) => {
    keepPages();
    const before = cache.sequence();
    await postAndLeave();
    expect(kept()).toEqual({ named: true, unrelated: true });
    await end(refusal);
    expect(kept()).toEqual({ named: true, unrelated: true });
    expect(cache.sequence()).toBe(before);
  });

  it("a refused action that ended before the client went away bumps nothing at the close", async () => {
    keepPages();
    held = steps();
    const client = new AbortController();
    const posting = fetch(base + "/write", { method: "POST", body: "a=1", signal: client.signal }).catch((error: unknown) => error);
    await held.started.promise;
    await end(() => data("Please check the form.", { status: 400 }));
    client.abort();
    await posting;
    await held.closed.promise;
    expect(kept()).toEqual({ named: true, unrelated: true });
  });

  it("a post whose client went away before any handler ran bumps nothing", async () => {
    keepPages();
    const before = cache.sequence();
    held = steps();
    const req = request(base + "/upload", { method: "POST", headers: { "content-length": "100000" } });
    req.on("error", () => undefined);
    req.write("a=".padEnd(100, "1"));
    await held.started.promise;
    req.destroy();
    await held.closed.promise;
    expect(kept()).toEqual({ named: true, unrelated: true });
    expect(cache.sequence()).toBe(before);
  });

  it("an action that succeeded bumps what it wrote once it ends, or everything when it named nothing", async () => {
    keepPages();
    await postAndLeave();
    expect(kept()).toEqual({ named: true, unrelated: true });
    await end(() => {
      wrote(tag.topic("named"));
      return { ok: true };
    });
    expect(kept()).toEqual({ named: false, unrelated: true });

    keepPages();
    await postAndLeave();
    expect(kept()).toEqual({ named: true, unrelated: true });
    await end(() => ({ ok: true }));
    expect(kept()).toEqual({ named: false, unrelated: false });

    // A thrown redirect is how an action says it is done.
    keepPages();
    await postAndLeave();
    await end(() => Promise.reject(redirect("/named")));
    expect(kept()).toEqual({ named: false, unrelated: false });
  });
});

describe("the cache audit's reading of SQL and its rules (ADR 0051)", () => {
  it("finds the tables a statement reads and changes, quoted or not, and nothing else", () => {
    expect(sqlTables('select "d"."id" from "discussion" as "d" inner join "member" on "member"."id" = "d"."author_id"')).toEqual({
      read: ["discussion", "member"],
      wrote: [],
      inserted: [],
    });
    expect(sqlTables("update reply set body = 'from topic' where id in (select id from reply_hour)")).toEqual({
      read: ["reply_hour"],
      wrote: ["reply"],
      inserted: [],
    });
    expect(sqlTables('delete from "session" where "member_id" = ?')).toEqual({ read: [], wrote: ["session"], inserted: [] });
    // A function's `from`, a CTE's name and a string are no tables; an upsert may change a row.
    expect(sqlTables("with recent as (select extract(epoch from created_at) as t from event) select t from recent").read).toEqual(["event"]);
    expect(sqlTables('insert into "xp_event" ("a") values (?) on conflict ("a") do nothing')).toEqual({ read: [], wrote: [], inserted: ["xp_event"] });
    expect(sqlTables('insert into "event_rsvp" ("a") values (?) on conflict ("a") do update set "a" = excluded."a"').wrote).toEqual(["event_rsvp"]);
  });

  it("fails a kept page of a route without a policy, and a static page that reads a table", () => {
    const page = { method: "GET", path: "/x", read: [], reads: [tag.site] };
    expect(keptPageViolations({ ...page, policy: undefined }).map((v) => v.rule)).toEqual(["kept page of a route without a policy"]);
    expect(keptPageViolations({ ...page, policy: "static" })).toEqual([]);
    // `site` covers no table for a reader: only a site-wide write would drop the page.
    expect(keptPageViolations({ ...page, policy: "static", read: ["event", "session"] }).map((v) => v.tables)).toEqual([["event"]]);
    expect(keptPageViolations({ ...page, policy: "tags", read: ["event", "session"], reads: [tag.events] })).toEqual([]);
    // A topic's title never changes: a discussion's breadcrumb needs no topic tag, its replies do.
    expect(keptPageViolations({ ...page, policy: "tags", read: ["topic", "reply"], reads: [tag.discussion(1)] })).toEqual([]);
    expect(keptPageViolations({ ...page, policy: "tags", read: ["topic", "reply"], reads: [tag.member("m1")] }).map((v) => v.tables)).toEqual([["reply"]]);
  });

  it("takes a new member row as unseen, but not a change to one, and counts changedByRead for any method", () => {
    const join = { method: "POST", path: "/join", wrote: [], inserted: ["member", "session"], writes: [tag.nothing] };
    expect(writeViolations(join)).toEqual([]);
    expect(writeViolations({ ...join, wrote: ["member"] }).map((v) => v.tables)).toEqual([["member"]]);
    expect(writeViolations({ ...join, wrote: ["member"], changedByRead: [tag.viewer("m1")] })).toEqual([]);
    expect(writeViolations({ ...join, inserted: ["reply"] }).map((v) => v.tables)).toEqual([["reply"]]);
  });
  it("waits for a GET's transaction to commit before judging it: its changedByRead comes after the COMMIT", async () => {
    const audit = new CacheAudit();
    const res = Object.assign(new EventEmitter(), { statusCode: 200 });
    const tags: PageTags = { reads: new Set(), writes: new Set() };
    audit.begin({ method: "GET", originalUrl: "/council/1" } as Request, res as unknown as Response, tags);
    const query = (sql: string) => ({ sql, parameters: [], query: { kind: "RawNode" } }) as unknown as CompiledQuery;
    let commit: ((result: QueryResult<unknown> | undefined) => void) | void = undefined;
    withPageTags(tags, () => {
      audit.observer(query('insert into "question_view" ("question_id") values (?) on conflict do nothing'))?.({ rows: [], numAffectedRows: 1n });
      audit.observer(query('update "question" set "view_count" = "view_count" + ? where "id" = ?'))?.({ rows: [], numAffectedRows: 1n });
      commit = audit.observer(query("commit"));
    });
    res.emit("close");
    const judged = audit.flush();
    // The COMMIT answers later (a slow disk, a busy CI machine); its caller then names the tag.
    await new Promise((resolve) => setTimeout(resolve, 50));
    withPageTags(tags, () => {
      if (commit) commit({ rows: [] });
      changedByRead(tag.question(1));
    });
    await judged;
    expect(audit.violations).toEqual([]);
  });
});

describe("the browser suites' audit teardown", () => {
  it("fails the run when the server wrote a violation, lists it, and passes on an empty or missing file", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ipos-audit-")), "audit.jsonl");
    expect(() => checkAuditFile(file)).not.toThrow();
    const violation = { rule: "write named no tag for a table", method: "POST", path: "/x", tables: ["reply"], tags: ["events"] };
    fs.writeFileSync(file, JSON.stringify(violation) + "\n");
    expect(() => checkAuditFile(file)).toThrow(/1 missing tag.*\n.*POST \/x tables \[reply\] tags \[events\]/);
    // Read once: the next run starts clean.
    expect(() => checkAuditFile(file)).not.toThrow();
  });
});
