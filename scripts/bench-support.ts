// What the benchmark scripts share: the production build started on a data folder of their own,
// and single requests timed over loopback HTTP.
import { spawn } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";

/**
 * Starts the production build as `npm start` runs it (node server/index.js, NODE_ENV=production), in
 * a child process on DATA_DIR `dataDir` and a port of its own: the benchmark's client (autocannon,
 * fetch) must not share the server's event loop, and React must load its production build, which it
 * picks from NODE_ENV when first imported (a script that imported app code first would get the
 * development build). Run `npm run build` first. `stop()` sends SIGTERM and waits for the exit.
 * `cwd` names the tree whose build it starts (bench:baseline starts the baseline commit's too);
 * `nodeArgs`, options for its Node, BENCH_NODE_ARGS's unless given (bench:mix's `--variant`).
 */
export async function startBuiltSite(dataDir: string, env: Record<string, string> = {}, { cwd = process.cwd(), nodeArgs = benchNodeArgs() } = {}) {
  return startSiteProcess(["server/index.js"], dataDir, env, cwd, "production", nodeArgs);
}

/**
 * BENCH_NODE_ARGS: options for the site's Node only (`--cpu-prof --cpu-prof-dir=/tmp/prof` profiles
 * the server under a benchmark; NODE_OPTIONS refuses --cpu-prof, and would profile the client too).
 */
function benchNodeArgs() {
  return process.env.BENCH_NODE_ARGS ?? "";
}

/**
 * The same site started from the source, without a build: server/app.ts and the routes compiled by
 * Vite in production mode in the child process, as the integration tests' site is. Like the tests
 * it runs with NODE_ENV "test": Vite's server compiles JSX for React's development runtime and
 * resolves React Router to its development build, so Node is started with the "development"
 * condition too (the packages Node loads itself, @react-router/express, must share Vite's copy).
 * Pages cost more than the build's, so it suits benchmarks of server work rather than of page times.
 */
export async function startSourceSite(dataDir: string, env: Record<string, string> = {}, { cwd = process.cwd() } = {}) {
  const program = [
    'import { createServer } from "vite";',
    'const vite = await createServer({ configFile: "vite.config.ts", mode: "production", logLevel: "error", server: { middlewareMode: true, hmr: false, ws: false, watch: null }, appType: "custom" });',
    'const { start } = await vite.ssrLoadModule("./server/app.ts");',
    "await start({ vite });",
  ].join("\n");
  return startSiteProcess(["--conditions=development", "--input-type=module", "-e", program], dataDir, env, cwd, "test", benchNodeArgs());
}

async function startSiteProcess(args: string[], dataDir: string, env: Record<string, string>, cwd: string, nodeEnv: "production" | "test", options: string) {
  const port = await freePort();
  const nodeArgs = options.split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd,
    env: {
      // glibc's allocator as `npm start` and the image set it (ADR 0078); the caller's environment wins.
      MALLOC_ARENA_MAX: "2",
      MALLOC_MMAP_THRESHOLD_: "16384",
      ...process.env,
      // V8's young generation as `npm start` sets it (ADR 0080); an option the caller names wins.
      NODE_OPTIONS: ["--max-semi-space-size=8", process.env.NODE_OPTIONS].filter(Boolean).join(" "),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `http://127.0.0.1:${port}`,
      DEMO_CONTENT: "off",
      LOG_LEVEL: "warn",
      SHUTDOWN_DRAIN_SECONDS: "0",
      ...env,
      NODE_ENV: nodeEnv,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`the site exited with ${child.exitCode} before it answered`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (tries > 600) throw new Error("the site did not answer /healthz within 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    /** The server's process id (its memory can be read from /proc). */
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * Joins the site at `base` as a new member through its form, as a person would, and returns the
 * session's Cookie header (the site signs a member in when they join).
 */
export async function signedInCookie(base: string, name = "Bench Reader") {
  const joined = await postUrlencoded(base, "/join", {
    fullName: name,
    email: `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`,
    password: "Secret123",
    confirmPassword: "Secret123",
    termsAccepted: "on",
  });
  const cookie = joined.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((pair) => !pair!.endsWith("="))
    .join("; ");
  if (!cookie.includes("session_token")) throw new Error(`joining ${base} failed: ${joined.status}`);
  return cookie;
}

/** A form post to the site at `base` as a browser without JavaScript sends it; redirects are not followed. */
export function postUrlencoded(base: string, url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(base + url, {
    method: "POST",
    redirect: "manual",
    headers: { origin: base, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

export function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Median, 95th percentile and slowest of `runs` single GETs of one page; the first `warmup`
 * requests warm caches and are not counted. Anything but 200 stops the benchmark.
 */
export async function timePage(base: string, url: string, runs: number, warmup = 3) {
  const samples: number[] = [];
  for (let i = 0; i < runs + warmup; i++) {
    const ms = await timeRequest(base, url);
    if (i >= warmup) samples.push(ms);
  }
  return summarise(samples);
}

/** Milliseconds for one GET of `url`, its whole body read; anything but 200 stops the benchmark. */
export async function timeRequest(base: string, url: string) {
  const started = performance.now();
  const res = await fetch(base + url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - started;
}

/** Median, 95th percentile and slowest of some timings. */
export function summarise(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    p95: sorted[Math.floor(sorted.length * 0.95)]!,
    max: sorted[sorted.length - 1]!,
  };
}

/** How many answers had each status, in status order: "3 × 200, 7 × 429". */
export function tallyStatuses(statuses: number[]) {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${n} × ${s}`)
    .join(", ");
}
