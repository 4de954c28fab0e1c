// Issue 29's mixed-traffic benchmark (item 1): the production build under a realistic mix, with the
// page cache on and off. Run `npm run build` first, then `npm run bench:mix`.
// The data: the migrations and the demo content, then 200 members who can sign in and 2,000
// discussions of 5–20 replies each (about 25,000 posts) spread over the demo's topics, written by
// those members, with the counts, last-activity times and XP the posting pipeline would have kept;
// bodies rendered once and reused. Each table is filled by one INSERT … SELECT over a series, as in
// bench-scale.ts.
// The traffic (autocannon, `--connections` at once): 90% of requests by visitors, 8% by signed-in
// members reading, 2% by signed-in members replying (a real POST of the reply form with the form key
// read from the page just before, as a browser does; that page read counts as a member read). Each
// read is the home page (3%), a topic's list (7%) or a discussion (90%), discussions drawn Zipf-like
// (weight 1/rank: about 70% of them go to the top 10%). Members sign in once, through the form, and
// reuse their cookies; visitors send no cookie. Every request but the form read asks for br/gzip, as
// browsers do (the form read is fetched as identity so its key can be read from the bytes).
// Rounds alternate the page cache on and off (PAGE_CACHE, app/.server/env.ts), a fresh server
// process per side per round on the same data; each process gets `--warmup` seconds of the same mix
// first, not counted. Server CPU (utime + stime, also per thread kind: event loop, V8's helpers,
// libuv's pool) and RSS are read from /proc/<pid> of the server; the compression CPU is the page
// cache's zlib work on the loop (its metric page_cache_zlib_seconds_total) and the pool's threads;
// the event loop's delay (p99 and max over the measured seconds) from its metrics port (ADR 0074),
// read once as the measure starts (prom-client then begins a new histogram) and once at its end.
// Last, item 3: what one page costs, one request at a time on a server of its own (costOfOnePage).
//   --engine sqlite|postgres   default sqlite; postgres creates its own database on
//                              SCALE_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres)
//                              and drops it afterwards
//   --connections 20  --rounds 2  --seconds 20 (per side per round)  --warmup 3
//   --miss-requests 300         requests per case per pass of what one page costs (item 3), 0 for none
//   --variant label:KEY=VALUE,…   (repeatable) alternate servers with these settings instead of the
//                              cache on and off, NODE_ARGS=… for their Node (see VARIANTS below)
// Writers take the members in turn; a member may make 30 writes in 10 minutes (WRITE_LIMIT), so
// runs much longer than the default meet 429s, which are counted and shown apart.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { hashPassword } from "better-auth/crypto";
import { sql } from "kysely";
import { type Db, type Engine } from "../app/.server/db/connect";
import { insertDemoContent, recount } from "../app/.server/db/demo-content";
import { rebuildReplyHours } from "../app/.server/db/reply-hours";
import { renderMarkdown } from "../app/.server/markdown";
import { excerptOf } from "../app/lib/text";
import { XP } from "../app/lib/xp";
import { migrateToLatest } from "../database/migrate";
import { benchDatabase, bulkSql, xpAndRanksFromLedger } from "./bench-database";
import { freePort, startBuiltSite } from "./bench-support";

const { values: args } = parseArgs({
  options: {
    engine: { type: "string", default: "sqlite" },
    connections: { type: "string", default: "20" },
    rounds: { type: "string", default: "2" },
    seconds: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    variant: { type: "string", multiple: true },
    "miss-requests": { type: "string", default: "300" },
  },
});
if (args.engine !== "sqlite" && args.engine !== "postgres") throw new Error("--engine must be sqlite or postgres");
const engine: Engine = args.engine;
const pgEngine = engine === "postgres";
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
/** Requests per case per pass of the one-page costs (item 3); 0 leaves them out. */
const MISS_REQUESTS = Number(args["miss-requests"]);
/**
 * `--variant label:KEY=VALUE,KEY=VALUE` (repeatable): instead of the cache on against off, rounds
 * alternate between these servers, each started with its own environment (PAGE_CACHE on unless
 * named; NODE_ARGS=… are options for the site's Node, as BENCH_NODE_ARGS), and the report compares
 * them. How docs/performance.md's back-to-back comparisons are made: a host's speed drifts between
 * runs minutes apart, so only alternating rounds of one run compare.
 */
const VARIANTS = (args.variant ?? []).map((text) => {
  const at = text.indexOf(":");
  if (at <= 0) throw new Error(`--variant ${text}: expected label:KEY=VALUE,…`);
  const env: Record<string, string> = {};
  for (const pair of text
    .slice(at + 1)
    .split(",")
    .filter(Boolean)) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new Error(`--variant ${text}: "${pair}" is no KEY=VALUE`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { label: text.slice(0, at), env };
});

const DISCUSSIONS = 2_000;
const MEMBERS = 200;
const MAX_REPLIES = 20;
const PASSWORD = "Mixed-traffic-1";
/** The issue's mix, as shares of all requests. */
const MIX = { member: 0.08, write: 0.02, home: 0.03, topic: 0.07 };
/** The issue's goals. */
const GOALS = { speedup: 1.5, readP99: 100, writeP99: 200, cpuPerRequest: 2, missCpu: 2 };
/** Item 5's goal, judged only on its own run: `--connections 100 --seconds 300`, highest RSS in the last 3 minutes. */
const RSS_GOAL = { mb: 300, connections: 100, seconds: 300 };
const KINDS: Kind[] = ["visitor", "member", "write"];
/** Clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

// ------------------------------------------------------------------ the database
const { db, dataDir, siteEnv, cleanUp } = await benchDatabase(engine, "mix", process.env.SCALE_PG_ADMIN_URL);

try {
  await migrateToLatest(db);
  await insertDemoContent(db);
  const built = await build(db);
  await db.destroy();
  await drive(built);
} finally {
  await cleanUp();
}
process.exit(0);

// ------------------------------------------------------------------ building the data
interface Built {
  /** The seeded discussions' addresses, in id order. */
  discussions: string[];
  /** A discussion with the most replies (MAX_REPLIES), whose miss item 3 prices. */
  longest: string;
  topics: string[];
  emails: string[];
}

async function build(db: Db): Promise<Built> {
  const started = Date.now();
  const now = Date.now();
  const { q, series, ago, after, step } = bulkSql(engine, now);

  const opening =
    "How do you keep a **daily** practice when the day runs away? I sit for ten minutes before work, then train.\n\n" +
    "- breath first\n- then the body\n\nSee [the manifesto](/manifesto) for why both.";
  const answer =
    "What worked for me: *one* fixed time, the same place, and a short note afterwards. Some days it is only three breaths, " +
    "and that still counts.\n\nWhen the week is heavy I keep the training short but I do not skip it.";
  const member = (expr: string) => `'mix-member-' || ((${expr}) % ${MEMBERS} + 1)`;
  const topics = await db.selectFrom("topic").select(["id", "section"]).orderBy("section").orderBy("id").execute();
  const firstId =
    Number(
      (
        await db
          .selectFrom("discussion")
          .select((eb) => eb.fn.max("id").as("n"))
          .executeTakeFirst()
      )?.n ?? 0,
    ) + 1;
  console.log(`building the data set on ${engine} (demo content, then):`);

  await step(`${MEMBERS} members with passwords`, async () => {
    const joined = ago(`${365 * 86_400}`);
    const flag = pgEngine ? "false" : "0";
    await sql
      .raw(
        `insert into member (id, name, email, email_verified, image, created_at, updated_at, handle, bio, interests, role)
         select 'mix-member-' || g, 'Mix Member ' || g, 'mix-member-' || g || '@example.org', ${flag}, null, ${joined}, ${joined}, 'mix-member-' || g, null, '[]', 'member'
         from ${series(MEMBERS)}`,
      )
      .execute(db);
    // One hash for all: each row carries its own salt in the hash text, so any copy verifies.
    const hash = q(await hashPassword(PASSWORD));
    await sql
      .raw(
        `insert into account (id, account_id, provider_id, member_id, password, created_at, updated_at)
         select 'mix-account-' || g, 'mix-member-' || g, 'credential', 'mix-member-' || g, ${hash}, ${joined}, ${joined}
         from ${series(MEMBERS)}`,
      )
      .execute(db);
  });
  // Discussion g (1..DISCUSSIONS) goes to topic g mod the topic count, one every 20 minutes, the
  // newest opened a day ago; its replies (5 + id mod 16 of them) come 40 minutes apart.
  const topicOf = `case g % ${topics.length} ${topics.map((t, i) => `when ${i} then ${q(t.id)}`).join(" ")} end`;
  await step(`${DISCUSSIONS.toLocaleString("en")} discussions`, () =>
    sql
      .raw(
        `insert into discussion (topic_id, author_id, title, slug, body, body_html, excerpt, created_at, last_activity_at)
         select ${topicOf}, ${member("g * 7")}, 'Mixed traffic discussion number ' || g, 'mixed-traffic-discussion-number-' || g,
           ${q(opening)}, ${q(renderMarkdown(opening))}, ${q(excerptOf(opening))}, ${ago(`(${DISCUSSIONS} - g) * 1200 + 86400`)}, ${ago(`(${DISCUSSIONS} - g) * 1200 + 86400`)}
         from ${series(DISCUSSIONS)} order by g`,
      )
      .execute(db),
  );
  await step("5–20 replies each", () =>
    sql
      .raw(
        `insert into reply (discussion_id, author_id, body, body_html, created_at)
         select d.id, ${member("d.id * 7 + s.g")}, ${q(answer)}, ${q(renderMarkdown(answer))}, ${after("d.created_at", "s.g * 2400")}
         from discussion d join ${series(MAX_REPLIES)} on s.g <= 5 + d.id % 16
         where d.id >= ${firstId} order by d.id, s.g`,
      )
      .execute(db),
  );
  await step("last activity, reply and topic counts", async () => {
    // Statistics first: PostgreSQL plans the correlated counts of recount() badly on fresh tables.
    if (pgEngine) await sql`analyze`.execute(db);
    await sql
      .raw(`update discussion set last_activity_at = (select max(created_at) from reply where reply.discussion_id = discussion.id) where id >= ${firstId}`)
      .execute(db);
    await recount(db);
  });
  // What the posting pipeline keeps for "busiest in the last 7 days" (ADR 0027), written directly here.
  await step("hourly reply counts (featured discussions)", () => rebuildReplyHours(db));
  await step("XP ledger (one row per post), member.xp and member.rank", async () => {
    await sql
      .raw(
        `insert into xp_event (member_id, kind, subject_id, points, created_at)
         select author_id, 'discussion.started', cast(id as text), ${XP["discussion.started"]}, created_at from discussion where id >= ${firstId}`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into xp_event (member_id, kind, subject_id, points, created_at)
         select author_id, 'reply.posted', cast(id as text), ${XP["reply.posted"]}, created_at from reply where discussion_id >= ${firstId}`,
      )
      .execute(db);
    await xpAndRanksFromLedger(db, "mix-member-%");
  });
  // What autovacuum does to a PostgreSQL database that has lived a while (statistics, visibility).
  if (pgEngine) await step("vacuum analyze", () => sql`vacuum analyze`.execute(db));

  const rows = await db
    .selectFrom("discussion")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["discussion.id", "discussion.slug", "discussion.reply_count", "topic.id as topicId", "topic.section"])
    .where("discussion.id", ">=", firstId)
    .orderBy("discussion.id")
    .execute();
  const posts = await db
    .selectFrom("reply")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("discussion_id", ">=", firstId)
    .executeTakeFirstOrThrow();
  console.log(
    `  built in ${((Date.now() - started) / 1000).toFixed(1)} s: ${rows.length.toLocaleString("en")} discussions, ${Number(posts.n).toLocaleString("en")} replies over ${topics.length} topics`,
  );
  const address = (r: (typeof rows)[number]) => `/${r.section}/${r.topicId}/${r.id}-${r.slug}`;
  const longest = rows.find((r) => Number(r.reply_count) === MAX_REPLIES);
  if (!longest) throw new Error(`no discussion with ${MAX_REPLIES} replies was built`);
  return {
    discussions: rows.map(address),
    longest: address(longest),
    topics: topics.map((t) => `/${t.section}/${t.id}`),
    emails: Array.from({ length: MEMBERS }, (_, i) => `mix-member-${i + 1}@example.org`),
  };
}

// ------------------------------------------------------------------ signing in
/** Signs a member in through the form and lands on the page it redirects to, as a browser does. */
async function signIn(base: string, email: string) {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0]!;
      const equals = pair.indexOf("=");
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1);
      if (value === "" || /;\s*max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const res = await fetch(`${base}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password: PASSWORD, rememberMe: "on" }),
  });
  if (res.status !== 302) throw new Error(`signing in ${email}: ${res.status}`);
  keep(res);
  // The landing page reads and clears the sign-in's flash cookie: what is left is what the browser keeps.
  const landing = await fetch(base + (res.headers.get("location") ?? "/"), { headers: { cookie: cookie() } });
  await landing.arrayBuffer();
  keep(landing);
  if (![...jar.keys()].some((name) => name.includes("session_token"))) throw new Error(`signing in ${email}: no session cookie`);
  return cookie();
}

// ------------------------------------------------------------------ the traffic
type Kind = "visitor" | "member" | "write";
interface Tally {
  latencies: number[];
  /** Answers by status (a write's 302 by where it leads), and replies never sent. */
  statuses: Map<string, number>;
  hits: number;
  misses: number;
  /** Misses of a page nobody of its kind (visitor, member) had asked this server for before: no cache could have had it. */
  firstMisses: number;
}
type Tallies = Record<Kind, Tally>;
function emptyTallies(): Tallies {
  return {
    visitor: { latencies: [], statuses: new Map(), hits: 0, misses: 0, firstMisses: 0 },
    member: { latencies: [], statuses: new Map(), hits: 0, misses: 0, firstMisses: 0 },
    write: { latencies: [], statuses: new Map(), hits: 0, misses: 0, firstMisses: 0 },
  };
}

/** What autocannon hands setupRequest and takes back (see node_modules/autocannon's README). */
interface RequestData {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
/** Autocannon's per-connection context: kept over one pass of the two steps, then reset. */
interface Context {
  kind?: Kind;
  path?: string;
  sentAt?: number;
  /** The member about to reply, and where, while their form is being read. */
  replying?: { path: string; cookie: string };
  /** The reply to send next, once the form's key was read. */
  post?: { path: string; cookie: string; key: string };
}
interface Step {
  setupRequest: (req: RequestData, context: Context) => RequestData;
  onResponse: (status: number, body: string, context: Context, headers: Record<string, string | string[]>) => void;
}

/** Picks from 1..n with weight 1/rank, by a precomputed cumulative table. */
function zipf(n: number) {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= n; rank++) cumulative.push((total += 1 / rank));
  const topShare = cumulative[Math.floor(n / 10) - 1]! / total;
  return {
    topShare,
    pick() {
      const u = Math.random() * total;
      let lo = 0;
      let hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid]! < u) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
  };
}

/** A fixed shuffle (mulberry32), so that popularity does not follow id, topic or age. */
function shuffled<T>(list: T[], seed: number) {
  const out = [...list];
  let a = seed;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A reply's answer: 302 to the new reply when it was posted; anything else (a 302 to /signin, a 429) as it came. */
function writeAnswer(status: number, headers: Record<string, string | string[]>) {
  const location = String(headers.Location ?? headers.location ?? "");
  if (status === 302 && location.includes("#reply-")) return "302 (reply posted)";
  return location ? `${status} to ${location.split("?")[0]}` : String(status);
}

function percentile(sorted: number[], q: number) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Milliseconds of CPU (user + system) the process has used, from /proc/<pid>/stat. */
function cpuMs(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}
/**
 * Milliseconds of CPU by thread kind, from /proc/<pid>/task/<tid>/stat and comm: the event loop
 * ("MainThread"), V8's helpers (garbage collection and compilation, "V8Worker") and libuv's pool
 * ("libuv-worker": zlib's asynchronous work, the kept level's making and compression()'s streams).
 */
function threadCpuMs(pid: number) {
  const by = { loop: 0, v8: 0, pool: 0, other: 0 };
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
      const kind = name === "MainThread" ? "loop" : name === "V8Worker" ? "v8" : name === "libuv-worker" ? "pool" : "other";
      by[kind] += ms;
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return by;
}
type ThreadCpu = ReturnType<typeof threadCpuMs>;

/** Resident memory in MB, from /proc/<pid>/status. */
function rssMb(pid: number) {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
  return kb / 1024;
}

interface Round {
  side: "on" | "off";
  /** The variant's label (`--variant`), or the side's. */
  label: string;
  responses: number;
  seconds: number;
  tallies: Tallies;
  cpuMs: number;
  threads: ThreadCpu;
  rssMb: number;
  /** RSS sampled every 5 s of the measure, seconds from its start. */
  rssSeen: Array<{ at: number; mb: number }>;
  lag: EventLoopLag;
}

interface EventLoopLag {
  p99Ms: number;
  maxMs: number;
  /** The page cache's zlib work on the event loop since the process began (a counter). */
  zlibMs: number;
  /** What the RSS is made of at the scrape, in MB (item 5): V8's heap, reserved and in use; memory outside it that V8 knows of (Buffers); the kept pages, a part of that. */
  heapTotalMb: number;
  heapUsedMb: number;
  externalMb: number;
  keptMb: number;
}

/**
 * The event loop's delay since the last scrape, from prom-client's default metrics (Node's
 * monitorEventLoopDelay, 10 ms resolution): each scrape reads its histogram and starts a new one.
 */
async function eventLoopLag(metricsPort: number): Promise<EventLoopLag> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, "m").exec(text)?.[1] ?? NaN);
  return {
    p99Ms: value("nodejs_eventloop_lag_p99_seconds") * 1000,
    maxMs: value("nodejs_eventloop_lag_max_seconds") * 1000,
    zlibMs: value("page_cache_zlib_seconds_total") * 1000,
    heapTotalMb: value("nodejs_heap_size_total_bytes") / 1e6,
    heapUsedMb: value("nodejs_heap_size_used_bytes") / 1e6,
    externalMb: value("nodejs_external_memory_bytes") / 1e6,
    keptMb: value("page_cache_bytes") / 1e6,
  };
}

async function drive(built: Built) {
  const popular = shuffled(built.discussions, 29);
  const discussionRank = zipf(popular.length);
  const discussion = () => popular[discussionRank.pick()]!;
  const page = () => {
    const u = Math.random();
    if (u < MIX.home) return "/";
    if (u < MIX.home + MIX.topic) return built.topics[Math.floor(Math.random() * built.topics.length)]!;
    return discussion();
  };

  console.log(`\nsigning in ${MEMBERS} members through /signin…`);
  const signingIn = Date.now();
  const cookies: string[] = [];
  {
    const site = await startBuiltSite(dataDir, siteEnv);
    for (let i = 0; i < built.emails.length; i += 4) {
      cookies.push(...(await Promise.all(built.emails.slice(i, i + 4).map((email) => signIn(site.base, email)))));
    }
    await site.stop();
  }
  console.log(`  signed in in ${((Date.now() - signingIn) / 1000).toFixed(1)} s`);
  let nextWriter = 0;

  // Each connection runs the two steps in turn. A reply is started only in the first (its form read),
  // and sent in the second, so a pass is either [form read, reply] or two independent reads; the
  // shares below make the whole come out at the issue's mix.
  const startReply = 2 * MIX.write;
  const memberOfReads = (2 * MIX.member - startReply) / (2 - startReply);
  const browser = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", accept: "text/html" };
  const compressed = { ...browser, "accept-encoding": "gzip, deflate, br" };
  let tallies = emptyTallies();
  let responses = 0;
  /** The pages (kind and path) asked of the server running now, its warm-up's included. */
  let askedBefore = new Set<string>();
  const read = (req: RequestData, context: Context): RequestData => {
    const member = Math.random() < memberOfReads;
    context.kind = member ? "member" : "visitor";
    context.sentAt = performance.now();
    const headers: Record<string, string> = member ? { ...compressed, cookie: cookies[Math.floor(Math.random() * cookies.length)]! } : compressed;
    context.path = page();
    return { ...req, method: "GET", path: context.path, headers, body: undefined };
  };
  const record = (status: number, context: Context, headers: Record<string, string | string[]>) => {
    const tally = tallies[context.kind!];
    tally.latencies.push(performance.now() - context.sentAt!);
    const answer = context.kind === "write" ? writeAnswer(status, headers) : String(status);
    tally.statuses.set(answer, (tally.statuses.get(answer) ?? 0) + 1);
    const state = headers["X-Page-Cache"] ?? headers["x-page-cache"];
    if (state === "hit") tally.hits += 1;
    else if (state === "miss") tally.misses += 1;
    if (context.kind !== "write" && context.path !== undefined) {
      const asked = `${context.kind} ${context.path}`;
      if (state === "miss" && !askedBefore.has(asked)) tally.firstMisses += 1;
      askedBefore.add(asked);
    }
    responses += 1;
  };
  const steps = (base: string): Step[] => [
    {
      setupRequest: (req, context) => {
        if (Math.random() >= startReply) return read(req, context);
        const cookie = cookies[nextWriter++ % cookies.length]!;
        const path = discussion();
        context.kind = "member";
        context.path = path;
        context.replying = { path, cookie };
        context.sentAt = performance.now();
        return { ...req, method: "GET", path, headers: { ...browser, cookie }, body: undefined };
      },
      onResponse: (status, body, context, headers) => {
        record(status, context, headers);
        const key = context.replying && /name="submissionKey" value="([^"]+)"/.exec(body)?.[1];
        if (context.replying && key) context.post = { ...context.replying, key };
        else if (context.replying)
          tallies.write.statuses.set("not sent (no form key on the page)", (tallies.write.statuses.get("not sent (no form key on the page)") ?? 0) + 1);
      },
    },
    {
      setupRequest: (req, context) => {
        const post = context.post;
        if (!post) return read(req, context);
        context.kind = "write";
        context.sentAt = performance.now();
        const body = new URLSearchParams({
          intent: "reply",
          body: `Reply ${randomBytes(4).toString("hex")} under load: I keep to *ten minutes* a day, and [this guide](https://example.org/guide) helped.`,
          submissionKey: post.key,
        }).toString();
        const headers = { ...compressed, cookie: post.cookie, origin: base, "content-type": "application/x-www-form-urlencoded" };
        return { ...req, method: "POST", path: post.path, headers, body };
      },
      onResponse: (status, _body, context, headers) => record(status, context, headers),
    },
  ];
  const load = async (base: string, seconds: number) => {
    const options: Parameters<typeof autocannon>[0] & { requests: Step[] } = { url: base, connections: CONNECTIONS, duration: seconds, requests: steps(base) };
    const result = await autocannon(options);
    return result.errors;
  };

  console.log(
    `\n${ROUNDS} alternating rounds of ${SECONDS} s per side (after ${WARMUP} s of warm-up per server), ${CONNECTIONS} connections, ${engine}; ` +
      `discussions drawn Zipf-like: the top 10% get ${(discussionRank.topShare * 100).toFixed(0)}% of discussion reads`,
  );
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const servers =
      VARIANTS.length > 0
        ? VARIANTS.map(({ label, env: { NODE_ARGS, ...env } }) => ({
            label,
            side: env.PAGE_CACHE === "off" ? ("off" as const) : ("on" as const),
            env,
            nodeArgs: NODE_ARGS,
          }))
        : (["on", "off"] as const).map((side) => ({ label: `cache ${side}`, side, env: {}, nodeArgs: undefined }));
    for (const { label, side, env, nodeArgs } of round % 2 === 1 ? servers : servers.toReversed()) {
      const metricsPort = await freePort();
      const site = await startBuiltSite(
        dataDir,
        { ...siteEnv, PAGE_CACHE: side, ...env, METRICS_PORT: String(metricsPort) },
        nodeArgs === undefined ? {} : { nodeArgs },
      );
      tallies = emptyTallies();
      askedBefore = new Set();
      await load(site.base, WARMUP);
      tallies = emptyTallies();
      responses = 0;
      const lagBefore = await eventLoopLag(metricsPort);
      const cpuBefore = cpuMs(site.pid);
      const threadsBefore = threadCpuMs(site.pid);
      const started = performance.now();
      // RSS every 5 s of the measure: item 5 asks for it flat over a long run's last 3 minutes.
      const rssSeen: Array<{ at: number; mb: number }> = [];
      const sampler = setInterval(() => rssSeen.push({ at: (performance.now() - started) / 1000, mb: rssMb(site.pid) }), 5000);
      const errors = await load(site.base, SECONDS).finally(() => clearInterval(sampler));
      const seconds = (performance.now() - started) / 1000;
      const lag = await eventLoopLag(metricsPort);
      lag.zlibMs -= lagBefore.zlibMs;
      const threadsAfter = threadCpuMs(site.pid);
      const threads = { loop: 0, v8: 0, pool: 0, other: 0 };
      for (const kind of Object.keys(threads) as Array<keyof ThreadCpu>) threads[kind] = threadsAfter[kind] - threadsBefore[kind];
      const result: Round = { side, label, responses, seconds, tallies, cpuMs: cpuMs(site.pid) - cpuBefore, threads, rssMb: rssMb(site.pid), rssSeen, lag };
      await site.stop();
      rounds.push(result);
      const p = (kind: Kind) => {
        const sorted = result.tallies[kind].latencies.toSorted((a, b) => a - b);
        return `${percentile(sorted, 0.5).toFixed(0)}/${percentile(sorted, 0.99).toFixed(0)}`;
      };
      console.log(
        `  round ${round}, ${label.padEnd(9)}: ${(result.responses / seconds).toFixed(0).padStart(5)} req/s, p50/p99 ms visitor ${p("visitor")}, member ${p("member")}, write ${p("write")}; ` +
          `CPU ${result.responses > 0 ? (result.cpuMs / result.responses).toFixed(2) : "–"} ms/req, RSS ${result.rssMb.toFixed(0)} MB${side === "on" ? `, visitors' hits ${visitorHits([result])}` : ""}, event-loop lag p99 ${lag.p99Ms.toFixed(0)} ms (max ${lag.maxMs.toFixed(0)})${errors > 0 ? `, ${errors} connection errors` : ""}, load average ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }
  }
  if (VARIANTS.length > 0) compareVariants(rounds);
  else report(rounds);
  if (MISS_REQUESTS > 0) await costOfOnePage(built.longest);
}

/**
 * Issue 29's item 3: what one page costs the server, one request at a time, on a server of its own
 * with the cache on (the site's default) and nothing else to do. The 20-reply discussion's miss is
 * asked at a new address each time (`?miss=n`, which no loader reads, so the cache keeps nothing to
 * answer it with), as identity (the render alone, with the cache's capture) and as brotli (the mix's
 * case: the quick level made before it is sent); its hit; and a 404 at a new address, which is the
 * layout and React Router's document without a page's own content. Passes alternate the cases, so a
 * host's drift shows as a spread rather than as a difference between them.
 */
async function costOfOnePage(longest: string) {
  const site = await startBuiltSite(dataDir, { ...siteEnv, PAGE_CACHE: "on" });
  try {
    let n = 0;
    const cases = [
      { label: "its miss, identity", address: () => `${longest}?miss=${n++}`, encoding: "identity" },
      { label: "its miss, brotli (the mix's)", address: () => `${longest}?miss=${n++}`, encoding: "gzip, deflate, br" },
      { label: "its hit, brotli", address: () => longest, encoding: "gzip, deflate, br" },
      { label: "a 404, identity", address: () => `/no-such-page-${n++}`, encoding: "identity" },
    ];
    const ask = async (address: string, encoding: string) => {
      const res = await fetch(site.base + address, { headers: { accept: "text/html", "accept-encoding": encoding } });
      await res.arrayBuffer();
      if (res.status >= 500) throw new Error(`${address}: ${res.status}`);
    };
    // The code's optimisation first, as a server that has served a while has it.
    for (let i = 0; i < MISS_REQUESTS; i++) for (const c of cases) await ask(c.address(), c.encoding);
    const spent = new Map(cases.map((c) => [c.label, [] as number[]]));
    for (let pass = 0; pass < 3; pass++) {
      for (const c of cases) {
        const before = cpuMs(site.pid);
        for (let i = 0; i < MISS_REQUESTS; i++) await ask(c.address(), c.encoding);
        spent.get(c.label)!.push((cpuMs(site.pid) - before) / MISS_REQUESTS);
      }
    }
    console.log(`
what one page costs, one request at a time (${MISS_REQUESTS} per case per pass, 3 passes; ${longest}):`);
    for (const [label, values] of spent) console.log(`  ${label.padEnd(32)} ${values.map((v) => v.toFixed(2)).join(", ")} ms of server CPU a request`);
    const miss = Math.min(...spent.get(cases[0]!.label)!);
    console.log(
      `issue 29's item 3: a ${MAX_REPLIES}-reply discussion rendered uncached in ≤ ${GOALS.missCpu} ms of CPU: ${miss.toFixed(2)} ms (its best pass, identity) — ${miss <= GOALS.missCpu ? "met" : "NOT met"}`,
    );
  } finally {
    await site.stop();
  }
}

/** The share of visitors' reads answered from the cache over these rounds. */
function visitorHits(rounds: Round[]) {
  const hits = rounds.reduce((sum, r) => sum + r.tallies.visitor.hits, 0);
  const misses = rounds.reduce((sum, r) => sum + r.tallies.visitor.misses, 0);
  return hits + misses > 0 ? `${((100 * hits) / (hits + misses)).toFixed(1)}%` : "–";
}

/** Lowest and highest RSS over each round's last 3 minutes (its whole measure when shorter). */
function rssSpanOf(rounds: Round[]) {
  return rounds
    .map((r) => {
      const last = r.rssSeen.filter((s) => s.at >= r.seconds - 180).map((s) => s.mb);
      return last.length === 0 ? "–" : `${Math.min(...last).toFixed(0)}–${Math.max(...last).toFixed(0)}`;
    })
    .join(", ");
}

/** `--variant` runs: each variant's rounds side by side (the on/off report and the goals need both sides). */
function compareVariants(rounds: Round[]) {
  console.log(`\nper variant (${ROUNDS} round(s) each; p99 pooled over its rounds):`);
  for (const { label } of VARIANTS) {
    const mine = rounds.filter((r) => r.label === label);
    const p99 = (kind: Kind) =>
      percentile(
        mine.flatMap((r) => r.tallies[kind].latencies).toSorted((a, b) => a - b),
        0.99,
      ).toFixed(0);
    const responses = mine.reduce((sum, r) => sum + r.responses, 0);
    console.log(
      `  ${label.padEnd(16)} ${mine.map((r) => (r.responses / r.seconds).toFixed(0)).join(", ")} req/s; CPU ${mine.map((r) => (r.cpuMs / Math.max(1, r.responses)).toFixed(2)).join(", ")} ms/req; ` +
        `p99 ms visitor ${p99("visitor")}, member ${p99("member")}, write ${p99("write")}; visitors' hits ${visitorHits(mine)}; ` +
        `RSS at the end ${mine.map((r) => r.rssMb.toFixed(0)).join(", ")} MB, ${rssSpanOf(mine)} MB in the last 3 minutes (${responses} responses)`,
    );
  }
}

// ------------------------------------------------------------------ the report
function report(rounds: Round[]) {
  const sides = (["on", "off"] as const).map((side) => {
    const mine = rounds.filter((r) => r.side === side);
    const pooled = emptyTallies();
    for (const r of mine) {
      for (const kind of KINDS) {
        const into = pooled[kind];
        const from = r.tallies[kind];
        // One at a time: a long run's latencies are more than a call's arguments may be.
        for (const latency of from.latencies) into.latencies.push(latency);
        for (const [status, n] of from.statuses) into.statuses.set(status, (into.statuses.get(status) ?? 0) + n);
        into.hits += from.hits;
        into.misses += from.misses;
        into.firstMisses += from.firstMisses;
      }
    }
    const sorted = Object.fromEntries(KINDS.map((kind) => [kind, pooled[kind].latencies.toSorted((a, b) => a - b)])) as Record<Kind, number[]>;
    const responses = mine.reduce((sum, r) => sum + r.responses, 0);
    const reads = pooled.visitor.latencies.length + pooled.member.latencies.length;
    const hits = pooled.visitor.hits + pooled.member.hits;
    const misses = pooled.visitor.misses + pooled.member.misses;
    return {
      side,
      rps: mine.reduce((sum, r) => sum + r.responses / r.seconds, 0) / mine.length,
      p50: (kind: Kind) => percentile(sorted[kind], 0.5),
      p99: (kind: Kind) => percentile(sorted[kind], 0.99),
      pooled,
      responses,
      mix: KINDS.map((kind) => `${((pooled[kind].latencies.length / responses) * 100).toFixed(1)}%`).join(" / "),
      hitRatio: hits + misses > 0 ? hits / (hits + misses) : NaN,
      hitsOfReads: reads > 0 ? hits / reads : NaN,
      visitorHits: pooled.visitor.hits / Math.max(1, pooled.visitor.hits + pooled.visitor.misses),
      memberHits: pooled.member.hits / Math.max(1, pooled.member.hits + pooled.member.misses),
      /** Of each kind's misses, the share that were the page's first asking (the rest were dropped or evicted since). */
      firstOfMisses: (kind: "visitor" | "member") => pooled[kind].firstMisses / Math.max(1, pooled[kind].misses),
      cpuPerRequest: responses > 0 ? mine.reduce((sum, r) => sum + r.cpuMs, 0) / responses : NaN,
      /** CPU per request by thread kind, and the loop's share spent in the page cache's zlib work. */
      perRequest: (part: keyof ThreadCpu | "zlib") =>
        responses > 0 ? mine.reduce((sum, r) => sum + (part === "zlib" ? r.lag.zlibMs : r.threads[part]), 0) / responses : NaN,
      rss: mine.map((r) => r.rssMb.toFixed(0)).join(", "),
      heap: mine
        .map((r) => `${r.lag.heapTotalMb.toFixed(0)}/${r.lag.heapUsedMb.toFixed(0)}/${r.lag.externalMb.toFixed(0)}/${r.lag.keptMb.toFixed(0)}`)
        .join(", "),
      /** The highest RSS over each round's last 3 minutes, the most of them. */
      rssHighest: Math.max(...mine.flatMap((r) => r.rssSeen.filter((seen) => seen.at >= r.seconds - 180).map((seen) => seen.mb))),
      rssSpan: rssSpanOf(mine),
      lag: mine.map((r) => `${r.lag.p99Ms.toFixed(0)} / ${r.lag.maxMs.toFixed(0)}`).join(", "),
    };
  });
  const [on, off] = sides as [(typeof sides)[0], (typeof sides)[0]];
  const statuses = (side: typeof on, kind: Kind) =>
    [...side.pooled[kind].statuses]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, n]) => `${n} × ${status}`)
      .join(", ");
  const row = (label: string, a: string, b: string) => console.log(`  ${label.padEnd(40)} ${a.padStart(18)} ${b.padStart(18)}`);
  const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "–");
  const ms2 = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "–");
  const pct = (value: number) => (Number.isNaN(value) ? "–" : `${(value * 100).toFixed(1)}%`);
  console.log(`\nper side, ${ROUNDS} round(s) of ${SECONDS} s each (latencies pooled over the rounds):`);
  row("", "page cache on", "page cache off");
  row("req/s (mean of rounds)", on.rps.toFixed(0), off.rps.toFixed(0));
  row("responses: visitor / member / write", on.mix, off.mix);
  for (const kind of KINDS) {
    const label = { visitor: "visitor reads", member: "member reads", write: "writes (reply POST)" }[kind];
    row(`${label} p50 / p99 ms`, `${ms(on.p50(kind))} / ${ms(on.p99(kind))}`, `${ms(off.p50(kind))} / ${ms(off.p99(kind))}`);
  }
  row("cache hits / (hits + misses), all reads", pct(on.hitRatio), "off");
  row("  visitor reads / member reads", `${pct(on.visitorHits)} / ${pct(on.memberHits)}`, "off");
  row("  misses of a page asked for the first time", `${pct(on.firstOfMisses("visitor"))} / ${pct(on.firstOfMisses("member"))}`, "off");
  row("  hits of all reads", pct(on.hitsOfReads), "off");
  row("server CPU ms per request", ms2(on.cpuPerRequest), ms2(off.cpuPerRequest));
  const split = (side: typeof on) => `${ms2(side.perRequest("loop"))} / ${ms2(side.perRequest("v8"))} / ${ms2(side.perRequest("pool"))}`;
  row("  loop / V8 helpers (GC) / libuv pool", split(on), split(off));
  // Compression CPU: the cache's zlib work on the loop, and the pool's (asynchronous zlib: the kept
  // level's making with the cache on, compression()'s streams with it off).
  row("  compression: zlib on loop / pool", `${ms2(on.perRequest("zlib"))} / ${ms2(on.perRequest("pool"))}`, `– / ${ms2(off.perRequest("pool"))}`);
  row("server RSS at the end of each round, MB", on.rss, off.rss);
  row("  lowest–highest in its last 3 minutes", on.rssSpan, off.rssSpan);
  row("  heap total/used, external/kept pages", on.heap, off.heap);
  row("event-loop lag p99 / max per round, ms", on.lag, off.lag);
  for (const side of sides) {
    console.log(
      `  answers, cache ${side.side}: visitor ${statuses(side, "visitor")}; member ${statuses(side, "member")}; write ${statuses(side, "write") || "none"}`,
    );
  }

  const readP99 = Math.max(on.p99("visitor"), on.p99("member"));
  /** A round without answers measured nothing: that is said, not judged. */
  const met = (value: number, within: boolean) => (!Number.isFinite(value) ? "not measured (no answers)" : within ? "met" : "NOT met");
  const speedup = off.rps > 0 ? on.rps / off.rps : NaN;
  console.log("\nissue 29's goals (judged on the page cache on, the site's default; cache off in brackets):");
  console.log(`  req/s with the cache ≥ ${GOALS.speedup}× without: ${ms2(speedup)}× — ${met(speedup, speedup >= GOALS.speedup)}`);
  console.log(
    `  p99 of reads ≤ ${GOALS.readP99} ms: visitor ${ms(on.p99("visitor"))}, member ${ms(on.p99("member"))} ` +
      `(${ms(off.p99("visitor"))}, ${ms(off.p99("member"))}) — ${met(readP99, readP99 <= GOALS.readP99)}`,
  );
  console.log(
    `  p99 of writes ≤ ${GOALS.writeP99} ms: ${ms(on.p99("write"))} (${ms(off.p99("write"))}) — ${met(on.p99("write"), on.p99("write") <= GOALS.writeP99)}`,
  );
  console.log(
    `  server CPU ≤ ${GOALS.cpuPerRequest} ms per request: ${ms2(on.cpuPerRequest)} (${ms2(off.cpuPerRequest)}) — ${met(on.cpuPerRequest, on.cpuPerRequest <= GOALS.cpuPerRequest)}`,
  );
  const rssRun = CONNECTIONS >= RSS_GOAL.connections && SECONDS >= RSS_GOAL.seconds;
  console.log(
    `  RSS ≤ ${RSS_GOAL.mb} MB over the last 3 of ${RSS_GOAL.seconds / 60} minutes at ${RSS_GOAL.connections} connections: ` +
      (rssRun
        ? `highest ${ms(on.rssHighest)} MB (${ms(off.rssHighest)}) — ${Number.isFinite(on.rssHighest) ? met(on.rssHighest, on.rssHighest <= RSS_GOAL.mb) : "not measured (no RSS samples)"}`
        : `judged on a run of --connections ${RSS_GOAL.connections} --seconds ${RSS_GOAL.seconds} (this one: highest ${ms(on.rssHighest)} MB)`),
  );
}
