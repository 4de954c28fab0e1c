// Soak test: 100 connections against the site for a while, then a clean stop. It passes when no
// request failed or answered anything but 2xx, the log has no error line, and SIGTERM exits 0.
//
//   npm run build && npm run bench:soak                       SQLite, 30 s, starts its own site
//   npm run bench:soak -- --duration 300                      the 5-minute soak
//   npm run bench:soak -- --engine postgres                   PostgreSQL: a fresh database on
//                                                             SOAK_PG_URL (default the test server), dropped after
//   npm run bench:soak -- --base http://127.0.0.1:3000        a site already running (its log is not read)
//
// Loopback only: this is a load generator.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "30" },
    connections: { type: "string", default: "100" },
    engine: { type: "string", default: "sqlite" },
    base: { type: "string" },
    // autocannon's per-request bound; a request slower than this counts as an error.
    timeout: { type: "string", default: "30" },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);
if (!Number.isFinite(duration) || duration <= 0 || !Number.isInteger(connections) || connections <= 0) {
  console.error("--duration must be seconds > 0 and --connections a whole number > 0");
  process.exit(2);
}
if (!["sqlite", "postgres"].includes(args.engine)) {
  console.error("--engine must be sqlite or postgres");
  process.exit(2);
}
const LOOPBACK = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/;
if (args.base && !LOOPBACK.test(args.base)) {
  console.error("--base must be a loopback address.");
  process.exit(2);
}

// Every seed screen a visitor reads; autocannon cycles through them on each connection.
const PAGES = ["/", "/monastery", "/battlefield", "/forge", "/council", "/monastery/morning-meditation", "/manifesto", "/join"];

const root = path.resolve(import.meta.dirname, "..");
let site;
if (args.base) {
  site = { base: args.base, lines: null, stop: async () => null };
} else {
  site = await startSite();
}

console.log(`soak: ${connections} connections for ${duration} s against ${site.base} (${args.base ? "running site" : args.engine})`);
const result = await autocannon({
  url: site.base,
  connections,
  duration,
  timeout: Number(args.timeout),
  requests: PAGES.map((p) => ({ method: "GET", path: p })),
});
const exitCode = await site.stop();

const errorLines = site.lines?.filter((l) => l.level >= 50) ?? [];
const warnLines = site.lines?.filter((l) => l.level === 40) ?? [];
const failed = result.errors + result.timeouts + result.non2xx;
console.log(
  [
    `requests      ${result.requests.total} (${Math.round(result.requests.average)}/s)`,
    `latency       p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    `errors        ${result.errors} (timeouts ${result.timeouts}, resets ${result.resets ?? 0})`,
    `non-2xx       ${result.non2xx}`,
    site.lines ? `log           ${errorLines.length} error lines, ${warnLines.length} warn lines` : "log           not read (site started elsewhere)",
    exitCode === null ? "" : `stop          SIGTERM → exit ${exitCode}`,
  ]
    .filter(Boolean)
    .join("\n"),
);
for (const line of errorLines.slice(0, 5)) console.log("  " + JSON.stringify(line));
const ok = failed === 0 && errorLines.length === 0 && (exitCode === null || exitCode === 0);
console.log(ok ? "soak: passed" : "soak: FAILED");
process.exit(ok ? 0 : 1);

/** Starts the built site as `npm start` would, on a fresh database, and collects its log lines. */
async function startSite() {
  if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
    console.error("No build: run `npm run build` first.");
    process.exit(2);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-soak-"));
  const env = { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  let dropDatabase = async () => {};
  if (args.engine === "postgres") {
    const adminUrl = process.env.SOAK_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
    const name = `ipos_soak_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDatabase = async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  const child = spawn(process.execPath, ["server/index.js"], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const lines = [];
  let rest = "";
  child.stdout.on("data", (chunk) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop();
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part));
      } catch {
        lines.push({ level: 50, msg: part });
      }
    }
  });
  let port;
  for (let i = 0; i < 600 && port === undefined; i++) {
    if (child.exitCode !== null) {
      console.error("the site did not start");
      await dropDatabase();
      process.exit(1);
    }
    port = lines.find((l) => typeof l.msg === "string" && l.msg.startsWith("listening on"))?.port;
    if (port === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base: `http://127.0.0.1:${port}`,
    lines,
    async stop() {
      child.kill("SIGTERM");
      const code = await exited;
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
