import { randomUUID } from "node:crypto";
import http from "node:http";
import { DatabaseSync } from "node:sqlite";
import path from "node:path";
import { Writable } from "node:stream";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cookieHeader, createTestSite, ENGINE, PG_URL, type TestSite } from "./test-services";
import { startSite } from "./site-server";

/**
 * The site over HTTP while its database fails under it. On PostgreSQL the site gets a database of
 * its own (not a schema in the shared test database), so that renaming it to refuse connections
 * and terminating its backends touch nobody else's run.
 */

const join = {
  fullName: "Ada Lovelace",
  email: "ada@example.org",
  password: "Secret123",
  confirmPassword: "Secret123",
  bio: "",
  "interests.fitness": "on",
  termsAccepted: "on",
};

/** Every log line the site writes, parsed, so tests can say what was logged at which level. */
const lines: { level: number; msg: string; status?: number; method?: string }[] = [];
const logger = pino(
  { level: "info" },
  new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  }),
);
const ERROR = 50;

const databaseName = `ipos_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const databaseUrl = (name: string) => {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

let site: TestSite;
let web: Awaited<ReturnType<typeof startSite>>;
let admin: pg.Client | undefined;

beforeAll(async () => {
  if (ENGINE === "postgres") {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
  }
  site = await createTestSite(ENGINE === "postgres" ? { pgUrl: databaseUrl(databaseName) } : {});
  web = await startSite({ ...site, services: { ...site.services, logger } });
}, 60_000);

afterAll(async () => {
  await web?.close();
  await site?.destroy();
  if (admin) {
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.query(`drop database if exists ${databaseName}_away with (force)`);
    await admin.end();
  }
});

beforeEach(() => {
  lines.length = 0;
});

/** Ends every backend the site holds, as `pg_terminate_backend` by an operator or a failover would. */
async function terminateBackends(name = databaseName): Promise<number[]> {
  const { rows } = await admin!.query<{ pid: number }>(
    "select pid, pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
    [name],
  );
  return rows.map((row) => row.pid);
}

/**
 * pg_terminate_backend only signals: the backend exits, and its client hears of it, a moment later.
 * Waits until every one of `pids` is gone, so their connections have closed under the site.
 */
async function untilExited(pids: Iterable<number>) {
  const wanted = [...new Set(pids)];
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await admin!.query("select 1 from pg_stat_activity where pid = any($1::int[])", [wanted]);
    if (rows.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`backends ${wanted.join(", ")} did not exit`);
}

/**
 * Makes the database refuse the site until the returned function restores it: on PostgreSQL the
 * database is renamed away (new connections fail with 3D000, open ones are terminated); on SQLite
 * another process holds the write lock past busy_timeout (SQLITE_BUSY).
 */
async function breakDatabase(): Promise<() => Promise<void>> {
  if (ENGINE === "postgres") {
    for (let attempt = 0; ; attempt++) {
      await terminateBackends();
      try {
        await admin!.query(`alter database ${databaseName} rename to ${databaseName}_away`);
        break;
      } catch (error) {
        // 55006: a pooled connection came back between the two statements; end it again.
        if ((error as { code?: string }).code !== "55006" || attempt > 20) throw error;
      }
    }
    return async () => {
      await terminateBackends(`${databaseName}_away`);
      await admin!.query(`alter database ${databaseName}_away rename to ${databaseName}`);
    };
  }
  const other = new DatabaseSync(path.join(site.services.env.DATA_DIR, "site.db"));
  other.exec("begin immediate");
  return async () => {
    other.exec("rollback");
    other.close();
  };
}

const UNAVAILABLE = "Temporarily unavailable";

describe(`the site when its database fails, on ${ENGINE}`, () => {
  it("answers 503 with Retry-After and its own unavailable screen, changes nothing, and recovers", async () => {
    expect((await web.get("/")).status).toBe(200);
    const joined = await web.post("/join", { ...join, fullName: "Grace Hopper", email: "grace@example.org" });
    const cookie = cookieHeader(joined.headers);
    expect(cookie).toContain("ipos.session_token=");
    const restore = await breakDatabase();
    try {
      // A write (both engines) and, on PostgreSQL where reads fail too, a page, a client-side
      // navigation's .data request and the health check.
      const posted = await web.post("/join", join);
      expect(posted.status).toBe(503);
      expect(posted.headers.get("retry-after")).toBe("10");
      const html = await posted.text();
      expect(html).toContain(UNAVAILABLE);
      expect(html).not.toContain("Unexpected Application Error!");
      if (ENGINE === "postgres") {
        const page = await web.get("/monastery");
        expect(page.status).toBe(503);
        expect(page.headers.get("retry-after")).toBe("10");
        expect(await page.text()).toContain(UNAVAILABLE);
        const data = await web.get("/monastery.data");
        expect(data.status).toBe(503);
        expect(data.headers.get("retry-after")).toBe("10");
        expect((await web.get("/healthz")).status).toBe(503);
        // Better Auth's own calls (sign-in, the session lookup of a signed-in reader) too.
        const signIn = await web.post("/signin", { email: join.email, password: join.password });
        expect(signIn.status, "sign-in").toBe(503);
        const withSession = await web.get("/dashboard", { cookie });
        expect(withSession.status, "session").toBe(503);
      }
    } finally {
      await restore();
    }
    expect((await web.get("/monastery")).status).toBe(200);
    expect((await web.get("/healthz")).status).toBe(200);
    const members = await site.services.db.selectFrom("member").select("id").where("email", "=", join.email).execute();
    expect(members).toHaveLength(0);
    // An outage is not a bug: warn lines and 503 request lines, no error lines.
    expect(lines.filter((l) => l.level >= ERROR)).toEqual([]);
  });

  if (ENGINE === "postgres") {
    it("survives its connections being terminated mid-request: in-flight requests get 503, never 500, then it serves again", async () => {
      expect((await web.get("/")).status).toBe(200);
      const statuses: number[] = [];
      const requests = Array.from({ length: 40 }, async () => {
        const res = await web.get("/monastery");
        await res.arrayBuffer();
        statuses.push(res.status);
      });
      // Keep ending the site's backends while the requests run (each reconnects and may be ended again).
      let ending = true;
      const ended: number[] = [];
      const terminator = (async () => {
        while (ending) {
          ended.push(...(await terminateBackends()));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      await Promise.all(requests);
      ending = false;
      await terminator;
      expect(ended.length).toBeGreaterThan(0);
      // A request that checks out a connection whose backend is ending at that moment is in flight
      // too; the ones after the backends are gone must find the pool has replaced them.
      await untilExited(ended);
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      // Ended connections are noticed and replaced: the site serves as before, by itself, within
      // seconds (on CI a request just after the storm has met a 503 that did not happen here; its warn
      // line is printed so the reason is on record), and then steadily.
      const warnings = () => JSON.stringify(lines.filter((l) => l.level >= 40).slice(-4));
      const recovery = Date.now();
      let status = (await web.get("/monastery")).status;
      if (status !== 200) console.warn(`site-resilience: ${status} just after the storm: ${warnings()}`);
      while (status !== 200 && Date.now() - recovery < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await web.get("/monastery")).status;
      }
      expect(status, warnings()).toBe(200);
      for (let i = 0; i < 3; i++) expect((await web.get("/monastery")).status, warnings()).toBe(200);
      expect((await web.get("/healthz")).status).toBe(200);
      expect(lines.filter((l) => l.level >= ERROR)).toEqual([]);
    });
  }
});

/** fetch refuses TRACE and friends, so these go through node:http. */
function request(method: string, url: string) {
  return new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
    const req = http.request(url, { method, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, allow: res.headers.allow }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe(`methods no route implements, on ${ENGINE}`, () => {
  it("answers TRACE with 405, PROPFIND with 501, OPTIONS with 204 and Allow, logged at info", async () => {
    for (const [method, status] of [
      ["TRACE", 405],
      ["PROPFIND", 501],
      ["MKCOL", 501],
      ["OPTIONS", 204],
    ] as const) {
      const res = await request(method, web.base + "/");
      expect(res.status, method).toBe(status);
      expect(res.allow, method).toBe("GET, HEAD, POST, OPTIONS");
    }
    expect(lines.filter((l) => l.level >= ERROR)).toEqual([]);
    const methods = new Set(["TRACE", "PROPFIND", "MKCOL", "OPTIONS"]);
    expect(lines.filter((l) => l.msg === "request" && methods.has(l.method!)).map((l) => [l.method, l.status])).toEqual([
      ["TRACE", 405],
      ["PROPFIND", 501],
      ["MKCOL", 501],
      ["OPTIONS", 204],
    ]);
  });

  it("answers a POST to a page without an action with 405 and logs no error", async () => {
    const res = await web.post("/manifesto", { anything: "1" });
    expect(res.status).toBe(405);
    await res.arrayBuffer();
    expect(lines.filter((l) => l.level >= ERROR)).toEqual([]);
    expect(lines.some((l) => l.msg === "request" && l.status === 405)).toBe(true);
  });
});
