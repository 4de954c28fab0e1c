import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express, { type Request } from "express";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bodyLimit,
  clientAddress,
  closeWhileDraining,
  freshNonce,
  MAX_BODY_BYTES,
  requestLogging,
  sameOriginWrites,
  securityHeaders,
  withoutTrailingSlash,
} from "./http";

let server: Server;
let base: string;
const writes: string[] = [];

beforeAll(async () => {
  const app = express();
  app.use(requestLogging(pino({ level: "silent" })));
  app.use(securityHeaders({ https: false, development: false }));
  app.use(bodyLimit());
  app.use(sameOriginWrites(() => ["https://ipos.example"]));
  app.get("/", (_req, res) => void res.send(`nonce:${res.locals.nonce}`));
  app.post("/write", (req, res) => {
    writes.push(req.get("origin") ?? "(none)");
    res.send("ok");
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("security headers", () => {
  it("draws every nonce once: 128 bits, base64, never repeated across pool refills", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const nonce = freshNonce();
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      seen.add(nonce);
    }
    expect(seen.size).toBe(2000);
  });

  it("sends CSP with a fresh nonce per response, nosniff, frame-ancestors and Referrer-Policy", async () => {
    const a = await fetch(base + "/");
    const b = await fetch(base + "/");
    const csp = a.headers.get("content-security-policy")!;
    const nonce = (await a.text()).replace("nonce:", "");
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(b.headers.get("content-security-policy")).not.toBe(csp);
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(a.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get("strict-transport-security")).toBeNull();
  });

  it("adds HSTS when the site is served over HTTPS", async () => {
    const app = express();
    app.use(securityHeaders({ https: true, development: false }));
    app.get("/", (_req, res) => void res.send("ok"));
    const s = await new Promise<Server>((resolve) => {
      const l = app.listen(0, "127.0.0.1", () => resolve(l));
    });
    try {
      const res = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/`);
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(res.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    } finally {
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  it("decides HSTS from the site's own address, not from X-Forwarded-Proto", async () => {
    const app = express();
    // Behind a trusted proxy req.secure believes X-Forwarded-Proto; HSTS must not.
    app.set("trust proxy", "loopback");
    app.use(securityHeaders({ https: false, development: false }));
    app.get("/", (req, res) => void res.send(String(req.secure)));
    const s = await new Promise<Server>((resolve) => {
      const l = app.listen(0, "127.0.0.1", () => resolve(l));
    });
    try {
      const res = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/`, { headers: { "x-forwarded-proto": "https" } });
      expect(await res.text()).toBe("true");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    } finally {
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  it("keeps a sane incoming request id and replaces a hostile one", async () => {
    expect((await fetch(base + "/", { headers: { "x-request-id": "abc-123" } })).headers.get("x-request-id")).toBe("abc-123");
    expect((await fetch(base + "/", { headers: { "x-request-id": "<script>" } })).headers.get("x-request-id")).not.toBe("<script>");
  });
});

describe("writes", () => {
  it("refuses a body over 1 MB with 413 before any handler runs", async () => {
    const before = writes.length;
    const res = await fetch(base + "/write", {
      method: "POST",
      headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
      body: "x=" + "a".repeat(MAX_BODY_BYTES),
    });
    expect(res.status).toBe(413);
    expect(writes.length).toBe(before);
  });

  it("refuses a cross-site POST with 403", async () => {
    const before = writes.length;
    const res = await fetch(base + "/write", { method: "POST", headers: { origin: "https://evil.example" }, body: "x=1" });
    expect(res.status).toBe(403);
    const bySite = await fetch(base + "/write", { method: "POST", headers: { "sec-fetch-site": "cross-site" }, body: "x=1" });
    expect(bySite.status).toBe(403);
    expect(writes.length).toBe(before);
  });

  it("accepts a same-origin POST and one from BASE_URL's origin", async () => {
    expect((await fetch(base + "/write", { method: "POST", headers: { origin: base }, body: "x=1" })).status).toBe(200);
    expect((await fetch(base + "/write", { method: "POST", headers: { origin: "https://ipos.example" }, body: "x=1" })).status).toBe(200);
  });
});

describe("draining", () => {
  it("closes the connection of every response written after draining began, also of requests already in flight", async () => {
    let draining = false;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const app = express();
    app.use(closeWhileDraining(() => draining));
    app.get("/slow", async (_req, res) => {
      await held;
      res.send("done");
    });
    app.get("/fast", (_req, res) => void res.send("done"));
    const s = await new Promise<Server>((resolve) => {
      const l = app.listen(0, "127.0.0.1", () => resolve(l));
    });
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    try {
      expect((await fetch(url + "/fast")).headers.get("connection")).toBe("keep-alive");
      const inFlight = fetch(url + "/slow");
      await new Promise((resolve) => setTimeout(resolve, 50));
      draining = true;
      release();
      const res = await inFlight;
      expect(res.headers.get("connection")).toBe("close");
      expect(await res.text()).toBe("done");
      expect((await fetch(url + "/fast")).headers.get("connection")).toBe("close");
    } finally {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });
});

describe("clientAddress", () => {
  const of = (ip: string | undefined, remote = "127.0.0.1") => clientAddress({ ip, socket: { remoteAddress: remote } } as unknown as Request);
  it("is X-Forwarded-For's reading when it is an address, port or not, else the connection's", () => {
    expect(of("203.0.113.7")).toBe("203.0.113.7");
    expect(of("203.0.113.7:5678")).toBe("203.0.113.7");
    expect(of("2001:db8::1")).toBe("2001:db8::1");
    expect(of("[2001:db8::1]:5678")).toBe("2001:db8::1");
    expect(of("not-an-address")).toBe("127.0.0.1");
    expect(of("x".repeat(4000))).toBe("127.0.0.1");
    expect(of(undefined, "10.0.0.9")).toBe("10.0.0.9");
  });
});

describe("withoutTrailingSlash", () => {
  it("drops the path's trailing slashes and keeps the query", () => {
    expect(withoutTrailingSlash("/terms/")).toBe("/terms");
    expect(withoutTrailingSlash("/monastery/stoic-philosophy//")).toBe("/monastery/stoic-philosophy");
    expect(withoutTrailingSlash("/forum/x/?page=2&a=%2F")).toBe("/forum/x?page=2&a=%2F");
    expect(withoutTrailingSlash("/terms/?next=/a/")).toBe("/terms?next=/a/");
  });

  it("leaves addresses without a trailing slash, and the home page, alone", () => {
    expect(withoutTrailingSlash("/")).toBeNull();
    expect(withoutTrailingSlash("/?page=2")).toBeNull();
    expect(withoutTrailingSlash("/terms")).toBeNull();
    expect(withoutTrailingSlash("/terms?next=/")).toBeNull();
    expect(withoutTrailingSlash("*")).toBeNull();
    expect(withoutTrailingSlash("http://evil.com/")).toBeNull();
  });

  it("always answers a path on this site, never another host", () => {
    expect(withoutTrailingSlash("//evil.com/")).toBe("/evil.com");
    expect(withoutTrailingSlash("///evil.com//")).toBe("/evil.com");
    expect(withoutTrailingSlash("/\\evil.com/")).toBe("/evil.com");
    expect(withoutTrailingSlash("//")).toBe("/");
    expect(withoutTrailingSlash("//?x=1")).toBe("/?x=1");
  });
});
