import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "~/.server/db/connect";
import { ENGINE, PG_URL } from "./test-services";
import { startSmtpServer } from "./smtp";
import { scratchPostgres } from "../../scripts/scratch-postgres";
import { staleBuildReason } from "../../scripts/build-freshness.js";

/**
 * The real process, started as `npm start` starts it (node server/index.js on the production
 * build), stopped with real signals. The build is made first when it is missing or older than the
 * sources, so these tests always run today's code.
 */

const root = path.resolve(import.meta.dirname, "../..");

function ensureBuild() {
  // The rule `npm start` follows (scripts/build-if-stale.js): build only what is stale.
  if (staleBuildReason(root) === null) return;
  execFileSync("npx", ["react-router", "build"], { cwd: root, stdio: "ignore" });
}

interface Site {
  child: ChildProcess;
  base: string;
  /** Every stdout line (pino JSON) and stderr line the process printed so far. */
  stdout: string[];
  stderr: string[];
  exit: Promise<number | null>;
}

function startProcess(env: Record<string, string>): Site {
  const child = spawn(process.execPath, ["server/index.js"], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: "production", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const site: Site = { child, base: "", stdout: [], stderr: [], exit: new Promise((resolve) => child.on("exit", (code) => resolve(code))) };
  const collect = (into: string[]) => {
    let rest = "";
    return (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split("\n");
      rest = parts.pop()!;
      into.push(...parts.filter(Boolean));
    };
  };
  child.stdout!.on("data", collect(site.stdout));
  child.stderr!.on("data", collect(site.stderr));
  return site;
}

async function listening(site: Site): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const line = site.stdout.find((l) => l.includes("listening on"));
    if (line) {
      site.base = `http://127.0.0.1:${JSON.parse(line).port}`;
      return;
    }
    if (site.child.exitCode !== null) throw new Error(`server exited: ${site.stderr.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("server did not start");
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function get(url: string, agent: http.Agent | false, onWritten?: () => void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.on("finish", () => onWritten?.());
  });
}

const errorLines = (site: Site) => site.stdout.filter((l) => l.startsWith("{") && JSON.parse(l).level >= 50);

let database: { env: Record<string, string>; drop: () => Promise<void> };

beforeAll(async () => {
  ensureBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-process-"));
  if (ENGINE === "postgres") {
    // A database of its own: the process migrates and seeds its public schema.
    const scratch = scratchPostgres("process", "ipos-process-test", PG_URL);
    await scratch.create();
    database = { env: { DATA_DIR: dataDir, DATABASE_URL: scratch.url }, drop: scratch.drop };
  } else {
    database = { env: { DATA_DIR: dataDir }, drop: async () => {} };
  }
}, 120_000);

afterAll(async () => {
  await database?.drop();
  if (database) fs.rmSync(database.env.DATA_DIR, { recursive: true, force: true });
});

describe("starting against an unreachable database", () => {
  it("prints one line per failed attempt without the password, then exits 1 with one line", async () => {
    const site = startProcess({
      DATA_DIR: database.env.DATA_DIR,
      DATABASE_URL: "postgres://ipos:hunter2-secret@127.0.0.1:1/ipos",
      DATABASE_RETRY_SECONDS: "3",
    });
    const code = await site.exit;
    expect(code).toBe(1);
    const output = [...site.stdout, ...site.stderr].join("\n");
    expect(output).not.toContain("hunter2");
    expect(output).not.toMatch(/^\s+at /m);
    const retries = site.stdout.filter((l) => l.includes("Database unreachable at postgres://127.0.0.1:1/ipos (ECONNREFUSED); retrying in"));
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect(site.stderr).toEqual(["Database unreachable at postgres://127.0.0.1:1/ipos (ECONNREFUSED); gave up after 3 s"]);
  }, 30_000);
});

describe(`stopping under load, on ${ENGINE}`, () => {
  it("drains on SIGTERM: healthz 503 at once, every accepted request answered in full, exit 0", async () => {
    const site = startProcess({ ...database.env });
    try {
      await listening(site);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
      // Light pages (the shared test machine is slow enough): 100 keep-alive connections, open and idle.
      const warm = await Promise.all(Array.from({ length: 100 }, () => get(site.base + "/terms", agent)));
      expect(warm.map((a) => a.status)).toEqual(Array(100).fill(200));

      // 60 requests in flight on those connections and 10 on connections of their own when the
      // signal comes (more would only measure how slow a shared test machine renders).
      let written = 0;
      let signalled!: () => void;
      const allWritten = new Promise<void>((resolve) => (signalled = resolve));
      const onWritten = () => ++written === 70 && signalled();
      const inFlight = [
        ...Array.from({ length: 60 }, () => get(site.base + "/terms", agent, onWritten)),
        ...Array.from({ length: 10 }, () => get(site.base + "/privacy", false, onWritten)),
      ];
      await allWritten;
      const signalledAt = Date.now();
      site.child.kill("SIGTERM");

      // A balancer's probe sees 503 at once; connections that arrive before it has moved away
      // are still served, and told to close.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const health = get(site.base + "/healthz", false);
      const during = Array.from({ length: 10 }, () => get(site.base + "/faq", false));

      const settled = await Promise.allSettled([...inFlight, ...during]);
      const summary: Record<string, number> = {};
      for (const s of settled) {
        const key = s.status === "rejected" ? String((s.reason as Error).message) : `${s.value.status} ${s.value.connection}`;
        summary[key] = (summary[key] ?? 0) + 1;
      }
      const log = site.stdout.filter((l) => !l.includes('"msg":"request"')).join("\n");
      expect(
        settled.every((s) => s.status === "fulfilled"),
        `${JSON.stringify(summary)}\n${log}`,
      ).toBe(true);
      const answers = settled.map((s) => (s as PromiseFulfilledResult<Answer>).value);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.body.trimEnd().endsWith("</html>")).toBe(true);
      }
      expect((await health).status).toBe(503);
      expect(answers.slice(70).every((a) => a.connection === "close")).toBe(true);

      expect(await site.exit).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(10_000);
      expect(errorLines(site)).toEqual([]);
      expect(site.stdout.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
      agent.destroy();
    } finally {
      if (site.child.exitCode === null) site.child.kill("SIGKILL");
    }
  }, 60_000);
});

/** A port nothing listens on now (the kernel's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = http.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe(`readiness and metrics in the running process, on ${ENGINE}`, () => {
  it("says it is ready, serves metrics on the private port only, with the token, and says 'draining' once stopping", async () => {
    const metricsPort = await freePort();
    const token = randomUUID();
    // No demo content: its picture would load sharp, which this process must show it has not loaded.
    const site = startProcess({ ...database.env, METRICS_PORT: String(metricsPort), METRICS_TOKEN: token, DEMO_CONTENT: "off" });
    try {
      await listening(site);
      const ready = await get(site.base + "/readyz", false);
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body)).toEqual({ status: "ready", checks: { database: true, migrations: true, cacheBus: true } });
      // A page twice: rendered and kept, then served from the cache (brotli, made on the loop).
      expect((await get(site.base + "/terms", false)).status).toBe(200);
      expect((await fetch(site.base + "/terms", { headers: { "accept-encoding": "br" } })).headers.get("content-encoding")).toBe("br");

      // Not on the site's own address.
      expect((await get(site.base + "/metrics", false)).status).toBe(404);
      const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      expect((await get(metricsUrl, false)).status).toBe(401);
      const scrape = await fetch(metricsUrl, { headers: { authorization: `Bearer ${token}` } });
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await scrape.text();
      expect(text).toMatch(/^http_requests_total\{method="GET",route="content\/terms",status="200"\} 2$/m);
      expect(text).toMatch(/^http_requests_total\{method="GET",route="readyz",status="200"\} 1$/m);
      expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="content\/terms"\} 2$/m);
      expect(text).toMatch(/^page_cache_requests_total\{result="hit"\} 1$/m);
      // The first /terms and the public /metrics (a 404 page).
      expect(text).toMatch(/^page_cache_requests_total\{result="miss"\} 2$/m);
      expect(text).toMatch(/^page_cache_pages [1-9]\d*$/m);
      expect(text).toMatch(/^db_query_duration_seconds_count [1-9]\d*$/m);
      expect(text).toMatch(/^mail_outbox_pending \d+$/m);
      expect(text).toMatch(/^mail_outbox_oldest_pending_seconds [\d.e+-]+$/m);
      expect(text).toMatch(/^live_streams_open 0$/m);
      // The scrape itself is no page read: none is answered or waits while it is taken (ADR 0077).
      expect(text).toMatch(/^page_reads_in_progress\{state="answering"\} 0$/m);
      expect(text).toMatch(/^page_reads_in_progress\{state="waiting"\} 0$/m);
      expect(text).toMatch(/^page_reads_refused_total 0$/m);
      // The brotli bytes of the kept page were made on the loop, and counted.
      expect(Number(/^page_cache_zlib_seconds_total (\S+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
      expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds [\d.e+-]+$/m);
      if (ENGINE === "postgres") expect(text).toMatch(/^db_pool_connections\{state="total"\} [1-9]\d*$/m);
      // Only /metrics is there.
      expect((await fetch(`http://127.0.0.1:${metricsPort}/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);

      // Pages alone never load libvips (ADR 0081: some 10 MB of resident memory); the first picture
      // drawn, a shared link's, loads it.
      const libvipsMapped = () => fs.readFileSync(`/proc/${site.child.pid}/maps`, "utf8").includes("libvips");
      expect(libvipsMapped()).toBe(false);
      const page = await (await fetch(site.base + "/terms")).text();
      const picture = /<meta property="og:image" content="([^"]+)"/.exec(page)?.[1];
      expect(picture).toMatch(/\/previews\/site-[0-9a-f]+\.png$/);
      const drawn = await fetch(site.base + new URL(picture!).pathname);
      expect([drawn.status, drawn.headers.get("content-type")]).toEqual([200, "image/png"]);
      expect((await drawn.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      expect(libvipsMapped()).toBe(true);

      site.child.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 100));
      const draining = await get(site.base + "/readyz", false);
      expect([draining.status, JSON.parse(draining.body)]).toEqual([503, { status: "draining" }]);
      expect(await site.exit).toBe(0);
      expect(errorLines(site)).toEqual([]);
    } finally {
      if (site.child.exitCode === null) site.child.kill("SIGKILL");
    }
  }, 60_000);
});

describe(`the mail worker in the running process, on ${ENGINE}`, () => {
  it("queues the reminder of an event starting within a day and sends it (an .eml file without SMTP_URL)", async () => {
    const site = startProcess({ ...database.env });
    const db = createDatabase(
      ENGINE === "postgres"
        ? { engine: "postgres", url: database.env.DATABASE_URL }
        : { engine: "sqlite", sqlitePath: path.join(database.env.DATA_DIR, "site.db") },
    );
    try {
      await listening(site);
      const someone = await db.selectFrom("member").select(["id"]).orderBy("created_at").executeTakeFirstOrThrow();
      const title = `Reminder wiring ${randomUUID().slice(0, 8)}`;
      const startsAt = new Date(Date.now() + 2 * 60 * 60 * 1000);
      const now = new Date().toISOString();
      const { id } = await db
        .insertInto("event")
        .values({
          title,
          description: "Written straight into the database while the site runs.",
          description_html: "<p>Written straight into the database while the site runs.</p>\n",
          path: "monk",
          starts_at: startsAt.toISOString(),
          ends_at: new Date(startsAt.getTime() + 60 * 60 * 1000).toISOString(),
          time_zone: "UTC",
          online_url: null,
          place: "The park",
          capacity: 5,
          host_id: someone.id,
          created_at: now,
          updated_at: now,
          cancelled_at: null,
          submission_key: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("event_rsvp")
        .values({ event_id: Number(id), member_id: someone.id, status: "going", waitlist_position: null, updated_at: now })
        .execute();

      // The worker polls every few seconds; no request nudges it, so this proves its periodic job.
      const outbox = path.join(database.env.DATA_DIR, "outbox");
      let mail: string | undefined;
      for (let i = 0; i < 200 && !mail; i++) {
        const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
        mail = files.map((f) => fs.readFileSync(path.join(outbox, f), "utf8")).find((text) => text.includes(title));
        if (!mail) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(mail, "no reminder mail was written").toBeDefined();
      expect(mail).toContain(`Subject: Tomorrow: ${title}`);
      site.child.kill("SIGTERM");
      expect(await site.exit).toBe(0);
    } finally {
      await db.destroy();
      if (site.child.exitCode === null) site.child.kill("SIGKILL");
    }
  }, 60_000);
});

/*
 * Two instances on one PostgreSQL database (issue 33): two real processes, each with its own data
 * folder and the same AUTH_SECRET, as a load balancer would run them. What a member does on one is
 * what the other knows: sessions, limits, view counts, pages kept in memory, live updates, bells
 * and mail. Several instances exist only on PostgreSQL: on SQLite one process owns the file.
 */
if (ENGINE === "postgres")
  describe("two instances on one PostgreSQL database", () => {
    const secret = `${randomUUID()}${randomUUID()}`;
    const db = () => createDatabase({ engine: "postgres", url: database.env.DATABASE_URL });
    const folders: string[] = [];
    const sites: Site[] = [];
    const closers: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const site of sites) if (site.child.exitCode === null) site.child.kill("SIGKILL");
      for (const close of closers) await close();
      for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
    });

    /** An instance on the file's database, started once the one before it listens (migrations, demo content). */
    async function instance(env: Record<string, string> = {}) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-instance-"));
      folders.push(dataDir);
      const site = startProcess({ ...database.env, DATA_DIR: dataDir, AUTH_SECRET: secret, MAIL_LEASE_SECONDS: "3", ...env });
      sites.push(site);
      await listening(site);
      return site;
    }

    let addresses = 0;
    /** A request from an address of its own (the site trusts loopback's X-Forwarded-For). */
    const from = () => `198.18.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;
    function post(base: string, pathname: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
      return fetch(base + pathname, {
        method: "POST",
        redirect: "manual",
        headers: { origin: base, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": from(), ...headers },
        body: new URLSearchParams(fields),
      });
    }
    const cookieOf = (res: Response) =>
      res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
    async function join(base: string, name: string) {
      const email = `${name.toLowerCase().replaceAll(" ", "-")}-${randomUUID().slice(0, 8)}@example.org`;
      const res = await post(base, "/join", { fullName: name, email, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" });
      expect(res.status).toBe(200);
      return { email, cookie: cookieOf(res) };
    }
    /** A reply posted through one instance's form, as a browser posts it. */
    async function reply(base: string, pathname: string, cookie: string, body: string) {
      const page = await (await fetch(base + pathname, { headers: { cookie } })).text();
      const submissionKey = /name="submissionKey" value="([^"]+)"/.exec(page)![1]!;
      return post(base, pathname, { intent: "reply", body, submissionKey }, { cookie });
    }
    /** The demo content's first discussion and its address. */
    async function firstDiscussion(database: ReturnType<typeof db>) {
      const first = await database
        .selectFrom("discussion")
        .innerJoin("topic", "topic.id", "discussion.topic_id")
        .select(["discussion.id", "discussion.slug", "discussion.topic_id", "topic.section"])
        .orderBy("discussion.id")
        .executeTakeFirstOrThrow();
      return { first, discussionPath: `/${first.section}/${first.topic_id}/${first.id}-${first.slug}` };
    }
    async function until<T>(check: () => Promise<T | undefined | false>, what: string, ms = 5_000): Promise<T> {
      const deadline = Date.now() + ms;
      for (;;) {
        const value = await check();
        if (value) return value;
        if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    it("share sessions, limits, view counts, kept pages, live updates, bells and mail", async () => {
      const smtp = await startSmtpServer();
      closers.push(smtp.close);
      const a = await instance({ SMTP_URL: smtp.url });
      const b = await instance({ SMTP_URL: smtp.url });
      const database = db();
      closers.push(() => database.destroy());
      const { first, discussionPath } = await firstDiscussion(database);

      // A session opened on A is a session on B.
      const nora = await join(a.base, "Nora Twofold");
      const dashboard = await fetch(b.base + "/dashboard", { headers: { cookie: nora.cookie }, redirect: "manual" });
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain("Nora Twofold");

      // One limit for both: ten wrong passwords for an address, five on each, and the eleventh is refused wherever it goes.
      for (let i = 0; i < 10; i++) expect((await post(i % 2 ? a.base : b.base, "/signin", { email: nora.email, password: `Wrong${i}xyz` })).status).toBe(400);
      const locked = await post(a.base, "/signin", { email: nora.email, password: "Secret123" });
      expect(locked.status).toBe(429);
      expect(await locked.text()).toContain("Too many attempts. Try again in 15 minutes.");

      // A visitor's view is counted once whichever instance shows the question; another visitor's is counted too.
      const question = await database.selectFrom("question").select(["id", "view_count"]).orderBy("id").executeTakeFirstOrThrow();
      const visitor = { "x-forwarded-for": "198.19.0.1" };
      for (const base of [a.base, b.base]) expect((await fetch(`${base}/council/${question.id}`, { headers: visitor })).status).toBe(200);
      expect((await fetch(`${b.base}/council/${question.id}`, { headers: { "x-forwarded-for": "198.19.0.2" } })).status).toBe(200);
      await until(async () => {
        const row = await database.selectFrom("question").select("view_count").where("id", "=", question.id).executeTakeFirstOrThrow();
        return Number(row.view_count) === Number(question.view_count) + 2;
      }, "two views counted");

      // B keeps the discussion's page; a reply posted on A is on B's next answer (NOTIFY, milliseconds).
      await fetch(b.base + discussionPath);
      const kept = await fetch(b.base + discussionPath);
      expect(kept.headers.get("x-page-cache")).toBe("hit");
      // Nora watches the discussion by replying in it; her live stream on B listens for replies.
      expect((await reply(a.base, discussionPath, nora.cookie, "Counting breaths, then losing count.")).status).toBe(302);
      const events: string[] = [];
      const streamReq = http.get(`${b.base}/live?watch=discussion:${first.id}`, { agent: false, headers: { cookie: nora.cookie } }, (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => events.push(chunk));
      });
      closers.push(async () => void streamReq.destroy());
      await until(async () => events.join("").includes("retry:") || events.length > 0, "the stream to open");

      const omar = await join(b.base, "Omar Twofold");
      const words = `Seven breaths on a calm morning ${randomUUID().slice(0, 8)}`;
      const posted = await reply(a.base, discussionPath, omar.cookie, words);
      expect(posted.status).toBe(302);
      const written = Date.now();
      await until(async () => (await (await fetch(b.base + discussionPath)).text()).includes(words), "B to show the reply", 2_000);
      expect(Date.now() - written).toBeLessThan(2_000);
      await until(async () => events.join("").includes('"type":"reply"'), "B's stream to hear the reply from A");
      // Nora's bell, on B, rings for Omar's reply on A.
      await until(
        async () => (await (await fetch(b.base + "/notifications", { headers: { cookie: nora.cookie } })).text()).includes("Omar Twofold"),
        "Nora's notification",
      );

      // Mail: each instance's worker claims from one outbox, so every mail goes once.
      const readers = Array.from({ length: 6 }, (_, i) => `reader-${i}-${randomUUID().slice(0, 8)}@example.org`);
      for (const [i, email] of readers.entries()) expect((await post(i % 2 ? a.base : b.base, "/newsletter", { email })).status).toBe(200);
      await until(async () => readers.every((r) => smtp.received.some((m) => m.to.includes(r))), "every confirmation mail", 15_000);
      // A round more of both workers: nothing is sent twice.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      for (const r of readers) expect(smtp.received.filter((m) => m.to.includes(r))).toHaveLength(1);

      // Both stop cleanly (and their workers claim nothing of the next test's mail).
      for (const site of [a, b]) site.child.kill("SIGTERM");
      expect([await a.exit, await b.exit]).toEqual([0, 0]);
      expect([...errorLines(a), ...errorLines(b)]).toEqual([]);
    }, 120_000);

    it("chaos: one killed with SIGKILL under write load loses no acknowledged write, the other keeps serving and sends its leased mail once", async () => {
      const hanging = await startSmtpServer({ hold: true });
      const working = await startSmtpServer();
      closers.push(hanging.close, working.close);
      // A's mail server takes each mail and never answers: A dies holding the mails it claimed.
      const a = await instance({ SMTP_URL: hanging.url });
      const readers = Array.from({ length: 3 }, (_, i) => `leased-${i}-${randomUUID().slice(0, 8)}@example.org`);
      for (const email of readers) expect((await post(a.base, "/newsletter", { email })).status).toBe(200);
      await until(async () => hanging.held.length > 0, "A to claim the mail and hang sending it", 10_000);
      const b = await instance({ SMTP_URL: working.url });
      const database = db();
      closers.push(() => database.destroy());
      const { first, discussionPath } = await firstDiscussion(database);
      const writers = await Promise.all(Array.from({ length: 6 }, (_, i) => join(b.base, `Writer ${i} Chaos`)));

      // Six members write to both instances, one reply after another, until told to stop; A is killed meanwhile.
      const acknowledged: string[] = [];
      const failedOnB: string[] = [];
      let stop = false;
      let killed = false;
      const load = writers.map(async (writer, w) => {
        for (let n = 0; !stop; n++) {
          const onA = n % 2 === 0 && !killed;
          const words = `Chaos reply ${w}-${n}-${randomUUID().slice(0, 8)}`;
          try {
            const res = await reply(onA ? a.base : b.base, discussionPath, writer.cookie, words);
            if (res.status === 302) acknowledged.push(words);
            else if (!onA) failedOnB.push(`${res.status}`);
          } catch (error) {
            // A connection to A cut by the kill is no acknowledgement; B must never fail.
            if (!onA) failedOnB.push(String(error));
          }
        }
      });
      await until(async () => acknowledged.length >= 12, "the load to get going", 30_000);
      a.child.kill("SIGKILL");
      killed = true;
      expect(await a.exit).toBeNull();
      const atKill = acknowledged.length;
      await until(async () => acknowledged.length >= atKill + 12, "B to go on taking writes", 30_000);
      stop = true;
      await Promise.all(load);

      expect(failedOnB).toEqual([]);
      const stored = new Set(
        (await database.selectFrom("reply").select("body").where("discussion_id", "=", first.id).where("body", "like", "Chaos reply %").execute()).map(
          (r) => r.body,
        ),
      );
      expect(acknowledged.filter((words) => !stored.has(words))).toEqual([]);
      expect((await fetch(b.base + "/readyz")).status).toBe(200);

      // Once A's lease on them ends, B sends the mails A claimed, each once.
      await until(async () => readers.every((r) => working.received.some((m) => m.to.includes(r))), "B to send A's leased mail", 20_000);
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      for (const r of readers) expect(working.received.filter((m) => m.to.includes(r))).toHaveLength(1);
    }, 120_000);
  });
