import http, { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { sql } from "kysely";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { inProcessLiveBus, type LiveEvent } from "~/.server/live/live-bus";
import { postgresLiveBridge } from "../../server/live/postgres-bridge";
import { readEventStream } from "../../scripts/event-stream-reader";
import type { SiteOptions } from "../../server/app";
import { loadApp, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";
import { ENGINE, PG_URL, createTestSite, type TestSite } from "./test-services";

/** An open event stream read as a browser's EventSource would, over a socket of its own. */
interface Stream {
  res: IncomingMessage;
  /** The next event's data, parsed (comments and the retry hint are not events). */
  next(): Promise<LiveEvent>;
  retry: number | undefined;
  /** Resolves when the server ended or cut the stream. */
  ended: Promise<void>;
  close(): void;
}

function openStream(base: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: IncomingMessage["headers"]; body?: string; stream?: Stream }>((resolve, reject) => {
    const req = http.get(base + path, { headers, agent: false }, (res) => {
      if (res.headers["content-type"]?.startsWith("text/event-stream") !== true) {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => void (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        return;
      }
      const events: LiveEvent[] = [];
      const waiters: ((event: LiveEvent) => void)[] = [];
      let settle: () => void;
      const ended = new Promise<void>((r) => (settle = r));
      const stream: Stream = {
        res,
        retry: undefined,
        next: () => new Promise((r) => (events.length > 0 ? r(events.shift()!) : waiters.push(r))),
        ended,
        close: () => req.destroy(),
      };
      readEventStream(res, ({ data, retry }) => {
        if (retry !== undefined) stream.retry = retry;
        if (data === undefined) return;
        const event = JSON.parse(data) as LiveEvent;
        const waiter = waiters.shift();
        if (waiter) waiter(event);
        else events.push(event);
      });
      // A cut stream ends in an error ("aborted") rather than an end: both are the end here.
      res.on("error", () => settle());
      res.on("end", () => settle());
      res.on("close", () => settle());
      resolve({ status: res.statusCode!, headers: res.headers, stream });
    });
    req.on("error", reject);
  });
}

async function stream(base: string, path: string, headers: Record<string, string> = {}) {
  const opened = await openStream(base, path, headers);
  expect(opened.status).toBe(200);
  return opened.stream!;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

async function until(check: () => boolean | Promise<boolean>, what: string) {
  for (let tries = 0; !(await check()); tries++) {
    if (tries > 500) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The site as startSite serves it, with the live streams' limits and a drain switch of the test's own. */
async function serve(site: TestSite, options: { live?: SiteOptions["live"]; draining?: () => boolean } = {}) {
  const { createSite, build } = await loadApp();
  const front = createSite({
    env: { ...site.services.env, NODE_ENV: "production" },
    logger: site.services.logger,
    services: site.services,
    assets: (a) => a.use(express.static("public")),
    build,
    invalidation: site.invalidation,
    ...options,
  });
  await front.bus.start();
  await front.live.start();
  const server = await new Promise<Server>((resolve) => {
    const s = createServer(front.handler).listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    front,
    async close() {
      front.live.streams.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await front.close();
    },
  };
}

describe("GET /live", () => {
  const web = siteOverHttp({ demo: false });
  const live = () => web.site.services.live;

  it("streams a discussion's events to a visitor who watches it, and nothing of other channels", async () => {
    const opened = await openStream(web.http.base, "/live?watch=discussion:12");
    expect(opened.status).toBe(200);
    expect(opened.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(opened.headers["cache-control"]).toBe("no-store");
    // Straight to the app: the page cache neither looked it up nor kept it.
    expect(opened.headers["x-page-cache"]).toBeUndefined();
    const s = opened.stream!;
    expect(s.retry).toBeGreaterThanOrEqual(3000);
    await until(() => web.http.front.live.streams.open() === 1, "the stream to be open");
    live().publish("discussion:13", { type: "reply", id: 1 });
    live().publish("question:12", { type: "answer", id: 2 });
    live().publish("discussion:12", { type: "reply", id: 3 });
    expect(await s.next()).toEqual({ type: "reply", id: 3 });
    s.close();
    await until(() => web.http.front.live.streams.open() === 0, "the stream to be forgotten");
  });

  it("gives a signed-in member their own bell, with the count as of now first, and never another member's", async () => {
    const nora = await joinOverHttp(web, "Nora Live");
    const omar = await joinOverHttp(web, "Omar Other");
    const s = await stream(web.http.base, "/live?watch=question:4", { cookie: nora.cookie });
    expect(await s.next()).toEqual({ type: "bell", unread: 0 });
    live().publish(`member:${omar.id}`, { type: "bell", unread: 7 });
    live().publish("question:4", { type: "answer", id: 11 });
    live().publish(`member:${nora.id}`, { type: "bell", unread: 2 });
    expect(await s.next()).toEqual({ type: "answer", id: 11 });
    expect(await s.next()).toEqual({ type: "bell", unread: 2 });
    s.close();
  });

  it("answers a member who watches nothing with their bell alone, and a visitor who watches nothing with 204", async () => {
    const member = await joinOverHttp(web, "Bell Only");
    const s = await stream(web.http.base, "/live", { cookie: member.cookie });
    expect(await s.next()).toEqual({ type: "bell", unread: 0 });
    s.close();
    expect((await openStream(web.http.base, "/live")).status).toBe(204);
    // A session cookie that does not verify is no member.
    expect((await openStream(web.http.base, "/live", { cookie: "ipos.session_token=forged.abc" })).status).toBe(204);
  });

  it.each([
    "/live?watch=member:someone",
    "/live?watch=topic:1",
    "/live?watch=discussion:0",
    "/live?watch=discussion:12x",
    "/live?watch=discussion:1&watch=question:2",
    "/live?watch=discussion:1&also=1",
  ])("refuses %s with 400", async (path) => {
    const answer = await openStream(web.http.base, path);
    expect(answer.status).toBe(400);
    expect(web.http.front.live.streams.open()).toBe(0);
  });

  it("answers GET only: HEAD and a POST get 405", async () => {
    for (const method of ["HEAD", "POST"]) {
      const res = await fetch(`${web.http.base}/live?watch=discussion:1`, { method, headers: { origin: web.http.base } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
    }
  });

  it("cuts a client that stops reading once its unread bytes pass the bound, so memory stays bounded", async () => {
    const s = await stream(web.http.base, "/live?watch=discussion:77");
    await until(() => web.http.front.live.streams.open() === 1, "the stream to be open");
    // The client reads nothing more: the socket's buffers fill, then the server's.
    s.res.pause();
    const pad = "x".repeat(4000);
    for (let i = 0; i < 10_000 && web.http.front.live.streams.open() > 0; i++) {
      live().publish("discussion:77", { type: "reply", id: i, pad });
      if (i % 20 === 0) await turn();
    }
    expect(web.http.front.live.streams.open()).toBe(0);
    s.res.resume();
    await s.ended;
  });
});

describe("the limits and a stop", () => {
  let site: TestSite;
  const servers: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
    await site?.destroy();
  });

  it("answers 503 past the open streams' cap and 429 past one address's", async () => {
    site = await createTestSite();
    const one = await serve(site, { live: { maxStreams: 2, maxStreamsPerClient: 1 } });
    servers.push(one);
    const a = await stream(one.base, "/live?watch=discussion:1", { "x-forwarded-for": "203.0.113.1" });
    expect((await openStream(one.base, "/live?watch=discussion:1", { "x-forwarded-for": "203.0.113.1" })).status).toBe(429);
    const b = await stream(one.base, "/live?watch=discussion:1", { "x-forwarded-for": "203.0.113.2" });
    const refused = await openStream(one.base, "/live?watch=discussion:1", { "x-forwarded-for": "203.0.113.3" });
    expect(refused.status).toBe(503);
    a.close();
    await until(() => one.front.live.streams.open() === 1, "a slot to be freed");
    const c = await stream(one.base, "/live?watch=discussion:1", { "x-forwarded-for": "203.0.113.3" });
    b.close();
    c.close();
  });

  it("ends every stream when a stop begins, and tells a stream opened while draining to come back later", async () => {
    let draining = false;
    const one = await serve(site, { draining: () => draining });
    servers.push(one);
    const s = await stream(one.base, "/live?watch=question:1");
    await until(() => one.front.live.streams.open() === 1, "the stream to be open");
    draining = true;
    one.front.live.streams.endAll();
    await s.ended;
    const late = await stream(one.base, "/live?watch=question:1");
    await late.ended;
    expect(late.retry).toBeGreaterThanOrEqual(3000);
    expect(one.front.live.streams.open()).toBe(0);
  });
});

// Several instances exist only on PostgreSQL: on SQLite one process owns the file.
if (ENGINE === "postgres")
  describe("live events between two instances on PostgreSQL", () => {
    let site: TestSite;
    let second: TestSite;
    const closers: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const close of closers.reverse()) await close();
      await second?.close();
      await site?.destroy();
    });

    it("two buses on one database deliver each other's publications once, and not their own twice", async () => {
      site = await createTestSite();
      const logger = pino({ level: "silent" });
      const channel = `${site.invalidation!.channel}_bus`;
      const buses = [inProcessLiveBus(), inProcessLiveBus()];
      const bridges = buses.map((bus) =>
        postgresLiveBridge({ bus, url: PG_URL, channel, logger, notify: (c, payload) => sql`select pg_notify(${c}, ${payload})`.execute(site.services.db) }),
      );
      for (const bridge of bridges) closers.push(() => bridge.stop());
      await Promise.all(bridges.map((b) => b.start()));
      expect(bridges.every((b) => b.listening())).toBe(true);
      const got: [number, LiveEvent][] = [];
      buses.forEach((bus, i) => bus.subscribe("discussion:5", (event) => got.push([i, event])));
      buses[0]!.publish("discussion:5", { type: "reply", id: 1 });
      buses[1]!.publish("discussion:5", { type: "reply", id: 2 });
      await until(() => got.length >= 4, "both instances to hear both replies");
      // A marker sent after: once it arrives, any echo of the first two would have too.
      buses[1]!.publish("discussion:5", { type: "reply", id: 3 });
      await until(() => got.length >= 6, "the marker");
      const ids = (bus: number) => got.filter(([i]) => i === bus).map(([, e]) => e.id);
      expect(ids(0).sort()).toEqual([1, 2, 3]);
      expect(ids(1).sort()).toEqual([1, 2, 3]);
    });

    it("a stream on instance A gets what instance B publishes, and starts over after A's listener was cut", async () => {
      second = await site.another();
      const a = await serve(site);
      closers.push(() => a.close());
      const b = await serve(second);
      closers.push(() => b.close());
      const s = await stream(a.base, "/live?watch=discussion:8");
      await until(() => a.front.live.streams.open() === 1, "the stream to be open");
      second.services.live.publish("discussion:8", { type: "reply", id: 42 });
      expect(await s.next()).toEqual({ type: "reply", id: 42 });
      // Events B sends while A cannot hear them are lost: A ends its streams once it listens again,
      // so the browsers reconnect and read the current state.
      const pid = a.front.live.bridge!.backendPid();
      expect(pid).toBeGreaterThan(0);
      await sql`select pg_terminate_backend(${pid})`.execute(site.services.db);
      await s.ended;
      await until(() => a.front.live.bridge!.listening(), "A to listen again");
      const again = await stream(a.base, "/live?watch=discussion:8");
      await until(() => a.front.live.streams.open() === 1, "the new stream to be open");
      second.services.live.publish("discussion:8", { type: "reply", id: 43 });
      expect(await again.next()).toEqual({ type: "reply", id: 43 });
      again.close();
    });
  });
