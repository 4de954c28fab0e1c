// Issue 7's abuse replay: hostile Markdown and the limit races, against a running site, printing
// what it saw. Loopback only; every loop is bounded.
//   npm run build && npm run bench:abuse                 starts the built site on a fresh SQLite file
//   DATABASE_URL=postgres://…/fresh npm run bench:abuse   the same on PostgreSQL (an empty database)
//   BASE=http://127.0.0.1:3000 npm run bench:abuse        targets a site that is already running
// Each scenario sends its own X-Forwarded-For address (the site trusts loopback proxies), so one run
// never spends another scenario's per-address budget; the addresses are documentation-range
// strings in a header, never a destination.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { postUrlencoded, startBuiltSite, tallyStatuses, timePage } from "./bench-support";

const RUNS = Number(process.env.RUNS ?? 10);
const PARALLEL = 50;

let base = process.env.BASE;
let stop = async () => {};
if (base) {
  if (!/^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(base)) {
    console.error("BASE must be a loopback address.");
    process.exit(2);
  }
} else {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-abuse-"));
  // Demo content gives the topic and the Council the scenarios post into.
  const started = await startBuiltSite(dataDir, { DEMO_CONTENT: "on" });
  base = started.base;
  process.env.BASE_URL = base;
  stop = async () => {
    await started.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
const site = base!;
console.log(`abuse replay against ${site}${process.env.DATABASE_URL ? " (PostgreSQL)" : ""}\n`);

// ---------------------------------------------------------------- HTTP as a browser would send it

let ipCounter = 0;
/** A fresh client address for one scenario (RFC 5737 documentation range, header only). */
const freshIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;

const post = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) => postUrlencoded(site, url, form, headers);
const get = (url: string, headers: Record<string, string> = {}) => fetch(site + url, { redirect: "manual", headers });
const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
    .join("; ");

let members = 0;
async function join(ip: string) {
  members += 1;
  const email = `abuse${members}-${Date.now()}@example.org`;
  const res = await post(
    "/join",
    { fullName: `Abuse Tester ${members}`, email, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" },
    { "x-forwarded-for": ip },
  );
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`join answered ${res.status}`);
  return { email, cookie: cookieOf(res) };
}

async function formKey(url: string, cookie: string) {
  const html = await (await get(url, { cookie })).text();
  const key = html.match(/name="submissionKey" value="([^"]+)"/)?.[1];
  if (!key) throw new Error(`no submission key on ${url}`);
  return key;
}

function row(label: string, value: string) {
  console.log(`  ${label.padEnd(52)} ${value}`);
}

// ---------------------------------------------------------------- hostile Markdown

const HOSTILE: [string, string][] = [
  ["'![' × 10,000", "![".repeat(10_000)],
  ["'[](' × 6,666", "[](".repeat(6_666)],
  ["'*a' × 10,000", "*a".repeat(10_000)],
  ["'`' × 20,000", "`".repeat(20_000)],
  ["'> ' × 10,000 (nesting)", "> ".repeat(10_000)],
  ["'[a](' × 5,000", "[a](".repeat(5_000)],
  ["'<a' × 10,000", "<a".repeat(10_000)],
  ["'a_' × 10,000", "a_".repeat(10_000)],
];

const topic = "/monastery/breath-and-stillness";
const pages = ["/", "/monastery", topic, "/council"];

console.log("Hostile Markdown: page times before and after (single requests, median of", RUNS, "runs)");
const before = new Map<string, number>();
for (const page of pages) before.set(page, (await timePage(site, page, RUNS, 2)).median);

const writer = await join(freshIp());
const hostileDiscussions: string[] = [];
for (let i = 0; i < 3; i++) {
  const res = await post(
    `${topic}/new`,
    { title: `Hostile markdown number ${i + 1}`, body: HOSTILE[0][1], submissionKey: await formKey(`${topic}/new`, writer.cookie) },
    { cookie: writer.cookie },
  );
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`hostile discussion ${i + 1}: ${res.status}`);
  hostileDiscussions.push(res.headers.get("location")!);
}
const replier = await join(freshIp());
const discussion = hostileDiscussions[0];
for (const [, body] of HOSTILE) {
  const res = await post(discussion, { intent: "reply", body, submissionKey: await formKey(discussion, replier.cookie) }, { cookie: replier.cookie });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`hostile reply: ${res.status}`);
}
const asker = await join(freshIp());
const asked = await post(
  "/council/ask",
  { title: "A hostile question in Markdown", body: HOSTILE[0][1], virtues: "wisdom", submissionKey: await formKey("/council/ask", asker.cookie) },
  { cookie: asker.cookie },
);
await asked.arrayBuffer();
const question = asked.headers.get("location")?.split("#")[0];
if (asked.status !== 302 || !question) throw new Error(`hostile question: ${asked.status}`);
for (const [, body] of HOSTILE.slice(1, 4)) {
  const res = await post(question, { intent: "answer", body, submissionKey: await formKey(question, replier.cookie) }, { cookie: replier.cookie });
  await res.arrayBuffer();
}

for (const page of pages) {
  const after = await timePage(site, page, RUNS, 2);
  row(page, `before ${before.get(page)!.toFixed(1)} ms, after ${after.median.toFixed(1)} ms (max ${after.max.toFixed(1)})`);
}
for (const [label, page] of [
  [`discussion with ${HOSTILE.length} hostile replies`, discussion],
  ["question with hostile body and answers", question],
] as const) {
  const t = await timePage(site, page, RUNS, 2);
  row(label, `${t.median.toFixed(1)} ms (max ${t.max.toFixed(1)})`);
}

// ---------------------------------------------------------------- races

console.log(`\nRaces: ${PARALLEL} requests at once`);

{
  const victim = await join(freshIp());
  const ip = freshIp();
  const statuses = await Promise.all(
    Array.from({ length: PARALLEL }, () =>
      post("/signin", { email: victim.email, password: "Wrong-guess-1" }, { "x-forwarded-for": ip }).then(async (r) => (await r.arrayBuffer(), r.status)),
    ),
  );
  const checked = statuses.filter((s) => s === 400).length;
  row("wrong passwords for one account", `${tallyStatuses(statuses)}  → ${checked} checked (limit 10)`);
}

{
  const initiate = await join(freshIp());
  const keys = await Promise.all(Array.from({ length: PARALLEL }, () => formKey(`${topic}/new`, initiate.cookie)));
  const statuses = await Promise.all(
    keys.map((submissionKey, i) =>
      post(`${topic}/new`, { title: `Parallel discussion ${i + 1}`, body: "Racing the limit.", submissionKey }, { cookie: initiate.cookie }).then(
        async (r) => (await r.arrayBuffer(), r.status),
      ),
    ),
  );
  row("new discussions from one initiate", `${tallyStatuses(statuses)}  → ${statuses.filter((s) => s === 302).length} created (limit 3 a day)`);
}

{
  const member = await join(freshIp());
  const keys = await Promise.all(Array.from({ length: PARALLEL }, () => formKey(discussion, member.cookie)));
  const statuses = await Promise.all(
    keys.map((submissionKey, i) =>
      post(discussion, { intent: "reply", body: `Parallel reply ${i + 1}`, submissionKey }, { cookie: member.cookie }).then(
        async (r) => (await r.arrayBuffer(), r.status),
      ),
    ),
  );
  row("replies from one member", `${tallyStatuses(statuses)}  → ${statuses.filter((s) => s === 302).length} created (limit 30 per 10 minutes)`);
}

{
  const ip = freshIp();
  const statuses = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      post(
        "/join",
        { fullName: `Join Racer ${i}`, email: `racer${i}-${Date.now()}@example.org`, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" },
        { "x-forwarded-for": ip },
      ).then(async (r) => (await r.arrayBuffer(), r.status)),
    ),
  );
  row("30 joins from one address", `${tallyStatuses(statuses)}  → ${statuses.filter((s) => s === 200).length} joined (limit 5 an hour)`);
}

await stop();
process.exit(0);
