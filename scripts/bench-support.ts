// What the benchmark scripts share: the production build started on a data folder of their own,
// and single requests timed over loopback HTTP.
import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Starts build/server/index.js (run `npm run build` first) on DATA_DIR `dataDir`, port chosen by the system. */
export async function startBuiltSite(dataDir: string, env: Record<string, string> = {}) {
  Object.assign(process.env, { DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", DEMO_CONTENT: "off", LOG_LEVEL: "warn", NODE_ENV: "production", ...env });
  const { start } = await import(pathToFileURL(path.resolve("build/server/index.js")).href);
  const server: Server = await start();
  const { port } = server.address() as { port: number };
  return { server, base: `http://127.0.0.1:${port}` };
}

/**
 * Median, 95th percentile and slowest of `runs` single GETs of one page; the first `warmup`
 * requests warm caches and are not counted. Anything but 200 stops the benchmark.
 */
export async function timePage(base: string, url: string, runs: number, warmup = 3) {
  const samples: number[] = [];
  for (let i = 0; i < runs + warmup; i++) {
    const started = performance.now();
    const res = await fetch(base + url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (i >= warmup) samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return {
    median: samples[Math.floor(samples.length / 2)],
    p95: samples[Math.floor(samples.length * 0.95)],
    max: samples[samples.length - 1],
  };
}
