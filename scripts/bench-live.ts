// Issue 28's event-stream benchmark (item 5, ADR 0057): 1,000 open streams of GET /live on one
// process, on SQLite, with the site's own front, app and bus (createSite, as `npm start` serves it).
// Prints the server's memory before and after the streams opened and after the events, the time
// from publish to receipt of every event on every stream (p50, p99, max), and a reader that stopped
// reading being cut while the server's memory stays put. Run: npm run bench:live
//   STREAMS=1000 CHANNELS=10 ROUNDS=50 npm run bench:live
// The readers run in a child process (this file again, with "readers"), so their sockets and parsing
// are not the server's memory or event loop. Both stamp times with performance.timeOrigin + now(),
// the same wall clock on one machine. Loopback only.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http, { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import pino from "pino";
import { loadEnv } from "../app/.server/env";
import { createServices } from "../app/.server/services";
import { migrateToLatest } from "../database/migrate";
import { createSite } from "../server/app";
import { eventChunk } from "../server/live/live-streams";
import { readEventStream } from "./event-stream-reader";

const STREAMS = Number(process.env.STREAMS ?? 1000);
const CHANNELS = Number(process.env.CHANNELS ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 50);
/** The stream the stopped reader watches: no other reader is on it. */
const SLOW_CHANNEL = "discussion:999999";

const now = () => performance.timeOrigin + performance.now();

type FromReaders = { open: number } | { received: number } | { latencies: { p50: number; p99: number; max: number; count: number } } | { slowOpen: true };

if (process.argv[2] === "readers") await readers(process.argv[3]!);
else await serve();

async function serve() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-bench-live-"));
  const env = loadEnv({ NODE_ENV: "production", DATA_DIR: dataDir, DEMO_CONTENT: "off", LOG_LEVEL: "silent", BASE_URL: "http://127.0.0.1" });
  const logger = pino({ level: "silent" });
  const services = await createServices(env, logger, migrateToLatest);
  const site = createSite({
    env,
    logger,
    services,
    assets: () => {},
    // No page is asked for: the streams are answered before React Router.
    build: () => Promise.reject(new Error("no pages in this benchmark")),
    // Every reader comes from 127.0.0.1; the per-address cap is for the open internet.
    live: { maxStreamsPerClient: STREAMS + 1 },
  });
  await site.bus.start();
  await site.live.start();
  const server = createServer(site.handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const streams = site.live.streams;

  // A collection before each reading, so the heap figures are what is live, not what is garbage yet.
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  // Twice, a moment apart: the first frees the buffers' JavaScript objects, their memory outside the
  // heap is given back after it (V8 sweeps array buffers concurrently).
  const memory = async () => {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
    gc();
    const m = process.memoryUsage();
    return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20, heapTotal: m.heapTotal / 2 ** 20, external: m.external / 2 ** 20 };
  };
  const mb = (m: Awaited<ReturnType<typeof memory>>) =>
    `RSS ${m.rss.toFixed(1)} MB, heap ${m.heap.toFixed(1)} MB used of ${m.heapTotal.toFixed(1)} MB, external ${m.external.toFixed(1)} MB`;

  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, "readers", base], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, STREAMS: String(STREAMS), CHANNELS: String(CHANNELS) },
  });
  const messages = messageQueue(child);

  const before = await memory();
  console.log(`GET /live, ${STREAMS} streams over ${CHANNELS} discussions, ${ROUNDS} rounds of one event per discussion (SQLite, one process)`);
  console.log(`  server before the streams:  ${mb(before)}`);
  const opening = performance.now();
  await messages.until((m) => "open" in m && m.open === STREAMS);
  while (streams.open() < STREAMS) await new Promise((resolve) => setTimeout(resolve, 10));
  const opened = await memory();
  console.log(`  ${STREAMS} streams open in ${((performance.now() - opening) / 1000).toFixed(1)} s: ${mb(opened)}`);
  console.log(
    `    per stream: ${(((opened.rss - before.rss) * 1024) / STREAMS).toFixed(1)} KB RSS, ${(((opened.heap - before.heap) * 1024) / STREAMS).toFixed(1)} KB heap`,
  );

  // The server's own share: handing one round's events (one a stream) to the sockets, synchronously.
  const fanOut: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let c = 1; c <= CHANNELS; c++) services.live.publish(`discussion:${c}`, { type: "reply", id: round * CHANNELS + c, t: now() });
    fanOut.push(performance.now() - started);
    await messages.until((m) => "received" in m && m.received === (round + 1) * STREAMS);
  }
  child.send("report");
  const report = await messages.until((m) => "latencies" in m);
  const after = await memory();
  if ("latencies" in report) {
    const { p50, p99, max, count } = report.latencies;
    console.log(`  publish to receipt, ${count} events: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${max.toFixed(2)} ms`);
    const sorted = fanOut.toSorted((a, b) => a - b);
    console.log(
      `  server time to write one round (${STREAMS} events): median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms (the rest of the latency is the readers' process reading ${STREAMS} sockets)`,
    );
  }
  console.log(`  server after the events:    ${mb(after)}`);

  // One more reader, which stops reading: the server cuts it once 64 KB wait for it.
  child.send("slow");
  await messages.until((m) => "slowOpen" in m);
  while (streams.open() < STREAMS + 1) await new Promise((resolve) => setTimeout(resolve, 10));
  const pad = "x".repeat(1000);
  let sent = 0;
  while (streams.open() > STREAMS && sent < 100_000) {
    services.live.publish(SLOW_CHANNEL, { type: "reply", id: sent, pad });
    sent += 1;
    if (sent % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const cut = streams.open() === STREAMS;
  const eventBytes = Buffer.byteLength(eventChunk({ type: "reply", id: sent, pad }));
  const slow = await memory();
  console.log(
    `  a reader that stopped reading: ${cut ? "cut" : "NOT cut"} after ${sent} events (${((sent * eventBytes) / 2 ** 20).toFixed(1)} MB sent to it, the rest in the socket buffers); the other ${streams.open()} streams still open`,
  );
  console.log(`  server after the cut:       ${mb(slow)}`);

  child.kill();
  streams.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await site.close();
  await services.db.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (!cut) process.exit(1);
}

/** The child's messages in order, each awaited by a test of its own. */
function messageQueue(child: ChildProcess) {
  let latest: FromReaders[] = [];
  let wake: (() => void) | undefined;
  child.on("message", (m: FromReaders) => {
    latest.push(m);
    wake?.();
  });
  child.on("exit", (code) => {
    if (code) {
      console.error(`the readers exited with ${code}`);
      process.exit(1);
    }
  });
  return {
    async until(test: (m: FromReaders) => boolean): Promise<FromReaders> {
      for (;;) {
        const found = latest.find(test);
        if (found) {
          latest = latest.slice(latest.indexOf(found) + 1);
          return found;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

/** The child: opens the streams, times each event from its stamp, and opens the stopped reader. */
async function readers(base: string) {
  const send = (m: FromReaders) => process.send!(m);
  const latencies: number[] = [];
  let open = 0;
  let received = 0;
  const openOne = (path: string, onEvent?: (data: string) => void) =>
    new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(base + path, { agent: false }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`GET ${path}: ${res.statusCode}`));
        readEventStream(res, (event) => {
          if (event.data !== undefined) onEvent?.(event.data);
        });
        res.on("error", () => {});
        resolve(res);
      });
      req.on("error", reject);
    });
  // Opened 50 at a time, as a crowd arriving rather than one burst of a thousand connections.
  for (let i = 0; i < STREAMS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, STREAMS - i) }, (_, k) =>
        openOne(`/live?watch=discussion:${((i + k) % CHANNELS) + 1}`, (data) => {
          const arrived = now();
          const event = JSON.parse(data) as { t: number };
          latencies.push(arrived - event.t);
          received += 1;
          if (received % STREAMS === 0) send({ received });
        }).then(() => void (open += 1)),
      ),
    );
  }
  send({ open });
  process.on("message", async (m: string) => {
    if (m === "report") {
      const sorted = latencies.toSorted((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
      send({ latencies: { p50: at(0.5), p99: at(0.99), max: sorted.at(-1)!, count: sorted.length } });
    } else if (m === "slow") {
      const res = await openOne(`/live?watch=${SLOW_CHANNEL}`);
      res.pause();
      send({ slowOpen: true });
    }
  });
}
