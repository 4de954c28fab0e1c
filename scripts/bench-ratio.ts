// Issue 13's throughput benchmark: each public page of the production build against the same HTML
// bytes served by a bare node:http server, in alternating rounds on this machine, printed as req/s
// and the ratio. Pages: anonymous `/`, a topic, a discussion with exactly 50 replies, a question;
// and the 50-reply discussion signed in, also as a multiple of the baseline recorded in
// docs/performance.md (commit 14084b7, before issue 13): a share of bare throughput measured on
// another day, so it moves with the machine; `npm run bench:baseline` runs the baseline build beside
// this one in the same run, the reading the goal asks for. `npm run build` first.
// Run: npm run bench:ratio   (ROUNDS=3 SECONDS=5 CONNECTIONS=20 by default)
import fs from "node:fs";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { prepareRatioData, REPLIES } from "./bench-ratio-data";
import { signedInCookie, startBuiltSite } from "./bench-support";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 20);

// ---------------------------------------------------------------- the data: demo content + a 50-reply discussion
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-ratio-"));
const { topicPath, discussionPath, questionPath } = await prepareRatioData(dataDir);

// ---------------------------------------------------------------- the site and a member's session
const { stop, base } = await startBuiltSite(dataDir, { DEMO_CONTENT: "off" });
const cookie = await signedInCookie(base);

const pages: { label: string; path: string; headers?: Record<string, string> }[] = [
  { label: "anonymous /", path: "/" },
  { label: "anonymous topic", path: topicPath },
  { label: `anonymous ${REPLIES}-reply discussion`, path: discussionPath },
  { label: "anonymous question", path: questionPath },
  { label: `signed in ${REPLIES}-reply discussion`, path: discussionPath, headers: { cookie } },
];

/** node:http answering every request with these bytes, in a child process; resolves once it listens. */
async function bareServer(bytes: Buffer, type: string) {
  const file = path.join(dataDir, "bare-page");
  fs.writeFileSync(file, bytes);
  const program = `const http=require("node:http");const b=require("node:fs").readFileSync(${JSON.stringify(file)});
http.createServer((q,r)=>{r.writeHead(200,{"content-type":${JSON.stringify(type)},"content-length":b.length});r.end(b)})
.listen(0,"127.0.0.1",function(){console.log(this.address().port)})`;
  const child = spawn(process.execPath, ["-e", program], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function run(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

console.log(`req/s, ${ROUNDS} alternating rounds of ${SECONDS} s, ${CONNECTIONS} connections (site vs the same bytes from bare node:http):`);
const figures: Record<string, { site: number; bare: number }> = {};
for (const page of pages) {
  const res = await fetch(base + page.path, { headers: page.headers });
  if (res.status !== 200) throw new Error(`${page.path}: ${res.status}`);
  const type = res.headers.get("content-type") ?? "text/html; charset=utf-8";
  const bytes = Buffer.from(await res.arrayBuffer());
  // The bare server runs in a process of its own, as the site does, so neither shares autocannon's.
  const bare = await bareServer(bytes, type);
  const bareUrl = bare.url;
  const site: number[] = [];
  const plain: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    site.push(await run(base + page.path, page.headers));
    plain.push(await run(bareUrl, page.headers));
  }
  await bare.stop();
  const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  figures[page.label] = { site: mean(site), bare: mean(plain) };
  const { site: s, bare: b } = figures[page.label]!;
  console.log(
    `  ${page.label.padEnd(34)} site ${s.toFixed(0).padStart(6)}   bare ${b.toFixed(0).padStart(6)}   ratio ${((s / b) * 100).toFixed(1).padStart(5)}%   (${(bytes.length / 1024).toFixed(1)} KB, cache: ${res.headers.get("x-page-cache") ?? "none"})`,
  );
}

const signedIn = figures[`signed in ${REPLIES}-reply discussion`]!;
const record = fs.existsSync("docs/performance.md") ? fs.readFileSync("docs/performance.md", "utf8") : "";
const baseline = Number(record.match(/baseline-signed-in-discussion-req-s:\s*([\d.]+)/)?.[1]);
const baselineBare = Number(record.match(/baseline-signed-in-discussion-bare-req-s:\s*([\d.]+)/)?.[1]);
if (baseline > 0 && baselineBare > 0) {
  // Machines and loads differ from run to run (the bare server itself moves by 2×), so the multiple
  // that counts compares each run's site against its own bare server: the baseline's share of bare
  // throughput (measured in one run at commit 14084b7) against this run's.
  const then = baseline / baselineBare;
  const now = signedIn.site / signedIn.bare;
  console.log(
    `signed in ${REPLIES}-reply discussion: ${signedIn.site.toFixed(0)} req/s, ${(now * 100).toFixed(2)}% of bare; ` +
      `the baseline (commit 14084b7, docs/performance.md) served ${baseline} req/s, ${(then * 100).toFixed(2)}% of its bare ${baselineBare}: ` +
      `${(now / then).toFixed(2)}× the baseline (goal 3×)`,
  );
} else {
  console.log(`signed in ${REPLIES}-reply discussion: ${signedIn.site.toFixed(0)} req/s (no baseline recorded in docs/performance.md)`);
}
await stop();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
