// Signed-in throughput of a 50-reply discussion page (issue 13, helper B): run from a tree's root
// after `npm run build`:  npx tsx scripts/bench-signed-in.ts
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
// @ts-expect-error -- autocannon ships no types (scripts/load.js uses it from plain JavaScript)
import autocannon from "autocannon";
import { startBuiltSite } from "./bench-support";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-signed-in-"));
const { server, base } = await startBuiltSite(dataDir, { DEMO_CONTENT: "on", AUTH_SECRET: "bench-secret-that-is-long-enough-0123456789" });
const email = `bench-${Date.now()}@example.org`;
const joined = await fetch(`${base}/join`, {
  method: "POST",
  redirect: "manual",
  headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ fullName: "Bench Reader", email, password: "Secret123", confirmPassword: "Secret123", termsAccepted: "on" }).toString(),
});
const cookie = joined.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
if (!cookie.includes("session_token")) throw new Error(`join: ${joined.status}`);

const sqlite = new DatabaseSync(path.join(dataDir, "site.db"));
const d = sqlite.prepare("select discussion.id, discussion.slug, topic.id as topic, topic.section from discussion join topic on topic.id = discussion.topic_id order by discussion.id limit 1").get() as { id: number; slug: string; topic: string; section: string };
const authors = (sqlite.prepare("select id from member").all() as { id: string }[]).map((r) => r.id);
const have = (sqlite.prepare("select count(*) as n from reply where discussion_id = ?").get(d.id) as { n: number }).n;
const insert = sqlite.prepare("insert into reply (discussion_id, author_id, body, body_html, created_at) values (?, ?, ?, ?, ?)");
for (let i = have; i < 50; i++) {
  const body = `Reply ${i}: a paragraph of *Markdown* with a [link](https://example.org) and some more words to read.`;
  insert.run(d.id, authors[i % authors.length], body, `<p>Reply ${i}: a paragraph of <em>Markdown</em> with a <a href="https://example.org" rel="nofollow ugc noopener noreferrer">link</a> and some more words to read.</p>\n`, new Date(Date.now() - (50 - i) * 60_000).toISOString());
}
sqlite.prepare("update discussion set reply_count = 50 where id = ?").run(d.id);
sqlite.close();

const url = `${base}/${d.section}/${d.topic}/${d.id}-${d.slug}`;
const page = await fetch(url, { headers: { cookie } });
const html = await page.text();
if (page.status !== 200 || !html.includes("Bench Reader") || !html.includes("Reply 49")) throw new Error(`page: ${page.status}`);
// CPU time per request, server and client in this one process: steadier than req/s on a busy machine.
for (const [label, headers] of [["signed in", { cookie }], ["anonymous", {}]] as const) {
  for (let i = 0; i < 30; i++) await (await fetch(url, { headers })).arrayBuffer();
  const runs = Number(process.env.CPU_RUNS ?? 300);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < runs; i++) await (await fetch(url, { headers })).arrayBuffer();
  const used = process.cpuUsage(cpu);
  console.log(`${label.padEnd(10)} cpu ${((used.user + used.system) / 1000 / runs).toFixed(2)} ms/request  wall ${((performance.now() - started) / runs).toFixed(2)} ms/request (sequential)`);
}
const duration = Number(process.env.DURATION ?? 10);
for (const [label, headers] of [["signed in", { cookie }], ["anonymous", {}]] as const) {
  await autocannon({ url, connections: 10, duration: 2, headers });
  const r = await autocannon({ url, connections: 10, duration, headers });
  console.log(`${label.padEnd(10)} ${Math.round(r.requests.average)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx + r.errors}`);
}
server.close();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
