// Issue 13's "signed in, the 50-reply discussion page: at least 3× today's throughput in the same
// run", measured as written: this build and the baseline commit (14084b7, the code before issue 13)
// serve the same page to a signed-in member at the same time of the same run, in alternating rounds
// (ABBA order, so a burst of load on a shared machine falls on both alike), and each round's
// multiple is printed with their median. bench:ratio's comparison through a bare server recorded on
// another day moved by ±40% within minutes on this machine; this one does not depend on it.
// The baseline is unpacked from git into os.tmpdir()/ipos-baseline-<commit>, installed and built
// there on the first run (a few minutes; later runs reuse it). Both sites get their data from
// scripts/bench-ratio-data.ts, run inside each tree, so each has the same 50-reply discussion.
// Run: npm run build && npm run bench:baseline   (BASELINE=14084b7 ROUNDS=6 SECONDS=5 CONNECTIONS=20)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { signedInCookie, startBuiltSite } from "./bench-support";

const COMMIT = process.env.BASELINE ?? "14084b7";
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const SECONDS = Number(process.env.SECONDS ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 20);
if (!/^[0-9a-f]{7,40}$/.test(COMMIT)) throw new Error(`BASELINE must be a commit id, not ${COMMIT}`);

const here = process.cwd();
const tsx = path.join(here, "node_modules/.bin/tsx");
// npm and the baseline's scripts run on this Node.js (the project's 24), not whatever is first on PATH.
const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` };
const baselineDir = path.join(os.tmpdir(), `ipos-baseline-${COMMIT}`);
const ready = path.join(baselineDir, ".bench-ready");
if (!fs.existsSync(ready)) {
  console.log(`unpacking, installing and building ${COMMIT} in ${baselineDir} (once)…`);
  fs.rmSync(baselineDir, { recursive: true, force: true });
  fs.mkdirSync(baselineDir, { recursive: true });
  const archive = execFileSync("git", ["archive", "--format=tar", COMMIT], { cwd: here, maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", baselineDir], { input: archive });
  execFileSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: baselineDir, env, stdio: ["ignore", "ignore", "inherit"] });
  execFileSync("npm", ["run", "build"], { cwd: baselineDir, env, stdio: ["ignore", "ignore", "inherit"] });
  fs.writeFileSync(ready, new Date().toISOString());
}
// The data script as it is now, so a change to it reaches the baseline's tree too.
fs.copyFileSync(path.join(here, "scripts/bench-ratio-data.ts"), path.join(baselineDir, "scripts/bench-ratio-data.ts"));

/** A data folder for the tree at `cwd`, filled by that tree's own code; the discussion's path. */
function prepare(cwd: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-baseline-data-"));
  const out = execFileSync(tsx, ["scripts/bench-ratio-data.ts", dataDir], { cwd, env, encoding: "utf8" });
  const { discussionPath } = JSON.parse(out.trim().split("\n").at(-1)!) as { discussionPath: string };
  return { dataDir, discussionPath };
}

const trees = [
  { label: "this build", cwd: here },
  { label: `baseline ${COMMIT}`, cwd: baselineDir },
];
type Site = Awaited<ReturnType<typeof startBuiltSite>> & {
  label: string;
  cwd: string;
  dataDir: string;
  url: string;
  cookie: string;
  bytes: number;
  rates: number[];
};
const sites: Site[] = [];
for (const tree of trees) {
  const { dataDir, discussionPath } = prepare(tree.cwd);
  const site = await startBuiltSite(dataDir, { DEMO_CONTENT: "off" }, { cwd: tree.cwd });
  const cookie = await signedInCookie(site.base);
  const url = site.base + discussionPath;
  // The page must be the signed-in one on both: the member's name is in the account menu.
  const page = await fetch(url, { headers: { cookie } });
  const html = await page.text();
  if (page.status !== 200 || !html.includes("Bench Reader")) throw new Error(`${tree.label}: ${url} is not the signed-in page (${page.status})`);
  sites.push({ ...tree, ...site, dataDir, url, cookie, bytes: html.length, rates: [] });
}

async function rate(site: Site, seconds = SECONDS) {
  const result = await autocannon({ url: site.url, connections: CONNECTIONS, duration: seconds, headers: { cookie: site.cookie } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${site.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

try {
  for (const site of sites) await rate(site, 2); // warm-up, not counted
  console.log(
    `signed-in 50-reply discussion, req/s, ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections, ABBA order (load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}):`,
  );
  const multiples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? sites : [...sites].reverse();
    for (const site of order) site.rates.push(await rate(site));
    const [now, then] = [sites[0]!.rates.at(-1)!, sites[1]!.rates.at(-1)!];
    multiples.push(now / then);
    console.log(`  round ${round + 1}: this build ${now.toFixed(0).padStart(5)}   baseline ${then.toFixed(0).padStart(5)}   ${(now / then).toFixed(2)}×`);
  }
  const sorted = [...multiples].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  console.log(
    `this build ${mean(sites[0]!.rates).toFixed(0)} req/s (${(sites[0]!.bytes / 1024).toFixed(1)} KB), baseline ${mean(sites[1]!.rates).toFixed(0)} req/s ` +
      `(${(sites[1]!.bytes / 1024).toFixed(1)} KB): median ${median.toFixed(2)}× the baseline, rounds ${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)}× (goal 3×); load average after ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
  );
} finally {
  for (const site of sites) {
    await site.stop();
    fs.rmSync(site.dataDir, { recursive: true, force: true });
  }
}
process.exit(0);
