import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import client from "prom-client";
import type { Logger } from "pino";
import type { Db } from "~/.server/db/connect";
import { poolUse } from "~/.server/db/connect";
import { outboxBacklog } from "~/.server/mail/outbox";
import { zlibOnLoopSeconds, type PageCache } from "./page-cache";
import type { Admission } from "./admission";
import { routeNameOf } from "./route-names";

/**
 * The operators' metrics (issue 33, ADR 0074), in Prometheus' text format from prom-client: every
 * response counted and timed by route and status, the page cache's hits and misses and what it
 * holds, the database's statements timed and its pool, the outbox's backlog, the open event
 * streams, and Node's own (memory, event-loop lag, GC). Each site gets a registry of its own, so
 * two sites in one process (the tests) never share counters.
 *
 * Never on the public address: they are served by `metricsServer` on METRICS_PORT, bound to
 * loopback unless METRICS_HOST says otherwise, and with METRICS_TOKEN also ask for it as a bearer.
 */
export interface SiteMetrics {
  registry: client.Registry;
  /** Kysely's log hook: how long a statement took. */
  observeQuery(milliseconds: number): void;
  /** The node:http handler wrapped so that each response is counted and timed when it finishes. */
  instrument(handler: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void;
  /** What is read at each scrape: the cache, the streams, the database's pool and outbox. */
  watch(sources: { pageCache?: PageCache; openStreams: () => number; db: Db; admission?: Admission }): void;
}

const SECONDS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A response no route named, by the kind of its path: a label with few values, never the path itself. */
function pathKind(url: string | undefined) {
  const path = (url ?? "").split("?")[0]!;
  if (path.startsWith("/assets/")) return "assets";
  if (path.startsWith("/media/")) return "media";
  if (path === "/live" || path === "/healthz" || path === "/readyz") return path.slice(1);
  return "other";
}

export function createMetrics(): SiteMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const requests = new client.Counter({
    name: "http_requests_total",
    help: "Responses sent, by method, route and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const durations = new client.Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its response, by method and route.",
    labelNames: ["method", "route"] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  const cacheAnswers = new client.Counter({
    name: "page_cache_requests_total",
    help: "Pages looked up in the page cache: hit, miss (rendered, then maybe kept) or bypass.",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  const queries = new client.Histogram({
    name: "db_query_duration_seconds",
    help: "Time each database statement took.",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [registry],
  });
  let sources: Parameters<SiteMetrics["watch"]>[0] | undefined;
  new client.Gauge({
    name: "page_cache_pages",
    help: "Pages the page cache holds.",
    registers: [registry],
    collect() {
      this.set(sources?.pageCache?.size ?? 0);
    },
  });
  new client.Gauge({
    name: "page_cache_bytes",
    help: "Bytes the page cache holds, every encoding counted.",
    registers: [registry],
    collect() {
      this.set(sources?.pageCache?.storedBytes ?? 0);
    },
  });
  new client.Gauge({
    name: "live_streams_open",
    help: "Event streams (live updates) open now.",
    registers: [registry],
    collect() {
      this.set(sources?.openStreams() ?? 0);
    },
  });
  new client.Gauge({
    name: "db_pool_connections",
    help: "PostgreSQL pool connections by state (total, idle), and requests waiting for one (waiting).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const use = sources && poolUse(sources.db);
      if (!use) return;
      for (const [state, value] of Object.entries(use)) this.set({ state }, value);
    },
  });
  new client.Counter({
    name: "page_cache_zlib_seconds_total",
    help: "Time the event loop spent compressing and decoding pages (kept pages, and pages held back and not kept).",
    registers: [registry],
    collect() {
      // The store keeps the count; a scrape reads its total.
      this.reset();
      this.inc(zlibOnLoopSeconds());
    },
  });
  new client.Gauge({
    name: "page_reads_in_progress",
    help: "Page reads the site is answering now, and those waiting in line for their turn (ADR 0077).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const gate = sources?.admission;
      if (!gate) return;
      this.set({ state: "answering" }, gate.inProgress);
      this.set({ state: "waiting" }, gate.waiting);
    },
  });
  new client.Counter({
    name: "page_reads_refused_total",
    help: "Page reads answered 503 because the line was too long or they waited too long (ADR 0077).",
    registers: [registry],
    collect() {
      const gate = sources?.admission;
      if (!gate) return;
      // The gate keeps the count; a scrape reads its total.
      this.reset();
      this.inc(gate.refused);
    },
  });
  const outboxPending = new client.Gauge({ name: "mail_outbox_pending", help: "Mail queued and not yet sent.", registers: [registry] });
  new client.Gauge({
    name: "mail_outbox_oldest_pending_seconds",
    help: "Age of the oldest mail still waiting to be sent (0 when none waits).",
    registers: [registry],
    // One query per scrape gives both outbox gauges.
    async collect() {
      if (!sources) return;
      const backlog = await outboxBacklog(sources.db);
      outboxPending.set(backlog.pending);
      this.set(backlog.oldestAt ? Math.max(0, (Date.now() - backlog.oldestAt.getTime()) / 1000) : 0);
    },
  });

  return {
    registry,
    observeQuery: (milliseconds) => queries.observe(milliseconds / 1000),
    watch(given) {
      sources = given;
    },
    instrument(handler) {
      return (req, res) => {
        const started = process.hrtime.bigint();
        res.once("finish", () => {
          const method = METHODS.has(req.method ?? "") ? req.method! : "other";
          const route = routeNameOf(res) ?? pathKind(req.url);
          requests.inc({ method, route, status: String(res.statusCode) });
          durations.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
          const cached = res.getHeader("x-page-cache");
          if (typeof cached === "string") cacheAnswers.inc({ result: cached });
        });
        handler(req, res);
      };
    },
  };
}

/**
 * The metrics' own HTTP server: GET /metrics and nothing else, on its own port (loopback by
 * default), with METRICS_TOKEN as a bearer token when set. A scrape never goes through the site's
 * middleware, its cache or its limits.
 */
export function metricsServer(metrics: SiteMetrics, options: { token?: string; logger: Logger }): Server {
  return createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics") return void res.writeHead(404, { "content-type": "text/plain" }).end("Not Found\n");
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405, { allow: "GET, HEAD" }).end();
    if (options.token && !bearerMatches(req.headers.authorization, options.token)) {
      return void res.writeHead(401, { "www-authenticate": "Bearer", "content-type": "text/plain" }).end("Unauthorized\n");
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": metrics.registry.contentType, "cache-control": "no-store" }).end(req.method === "HEAD" ? undefined : text),
      (error: unknown) => {
        options.logger.warn({ err: error }, "metrics could not be collected");
        res.writeHead(503, { "content-type": "text/plain" }).end("Metrics unavailable\n");
      },
    );
  });
}

function bearerMatches(header: string | undefined, token: string) {
  const given = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7) : "");
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
