import fs from "node:fs";
import "react-router";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Express } from "express";
import pino, { type Logger } from "pino";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { requestContext, servicesContext, type AppServices } from "~/.server/context";
import { loadEnv, type Env } from "~/.server/env";
import { viewerStillValid } from "~/.server/session";
import { createServices } from "~/.server/services";
import { outboxPruningJob, rateLimitPruningJob, startOutboxWorker } from "~/.server/mail/outbox-worker";
import { replyHourPruningJob } from "~/.server/domain/forum/reply-hour-pruning";
import { postImageSweepJob } from "~/.server/domain/writing/post-image-sweep";
import { reminderJob } from "~/.server/domain/events/reminders";
import { digestJob } from "~/.server/domain/notifications/digest";
import { checkInReminderJob } from "~/.server/domain/notifications/check-in-reminders";
import { bookmarkReminderJob } from "~/.server/domain/bookmarks/bookmark-reminders";
import { backupJob } from "~/.server/ops/backup";
import { sql } from "kysely";
import { currentPageTags } from "~/.server/cache/page-tags";
import { cachePolicyOf } from "~/.server/cache/route-policies";
import { matchedRoute, routeBodyLimit } from "./route-limits";
import {
  bodyLimit,
  clientAddress,
  closeWhileDraining,
  MAX_BODY_BYTES,
  methods,
  refuseNulInUrl,
  requestLogging,
  sameOriginWrites,
  securityHeaders,
  trailingSlashRedirect,
} from "./http";
import { guardDatabaseUnavailable } from "./unavailable";
import { precompressedAssets } from "./static-assets";
import { CacheAudit, countWriteHandlers, isCacheCandidate, PageCache, pageCacheFront, pageCapture, pageTagsMiddleware } from "./page-cache";
import { DEFAULT_CHANNEL, localBus, postgresBus, type InvalidationBus } from "./invalidation-bus";
import { isLiveRequest, liveStreams, type LiveStreams, type LiveStreamsOptions } from "./live/live-streams";
import { DEFAULT_LIVE_CHANNEL, postgresLiveBridge, type LiveBridge } from "./live/postgres-bridge";
import type { LocalLiveBus } from "~/.server/live/live-bus";
import { migrateToLatest, pendingMigrations } from "../database/migrate";
import { createMetrics, metricsServer, type SiteMetrics } from "./metrics";
import { nameRoute } from "./route-names";
import { admission } from "./admission";

export interface AppOptions {
  env: Env;
  logger: Logger;
  services: AppServices;
  /** Serves the browser assets: Vite's middleware in development, build/client in production. */
  assets: (app: Express) => void;
  build: () => Promise<ServerBuild>;
  /** True once a stop has begun: /healthz says 503 and responses close their connection. */
  draining?: () => boolean;
  /** The anonymous page cache the front asks first (createSite makes it); none means no caching. */
  pageCache?: PageCache;
  /** The page-cache audit (PAGE_CACHE_AUDIT, ADR 0051), when on. */
  audit?: CacheAudit;
  /** The live event streams (ADR 0057); createSite makes them, so that a stop can end them. */
  live?: LiveStreams;
  /** Whether the cache's invalidation bus hears the other instances' writes (readiness); createSite says. */
  cacheBusListening?: () => boolean;
  /** The operators' metrics (issue 33), when METRICS_PORT is set: each response is named by its route. */
  metrics?: SiteMetrics;
}

export function createApp({
  env,
  logger,
  services,
  assets,
  build,
  draining = () => false,
  pageCache,
  audit,
  live,
  cacheBusListening = () => true,
  metrics,
}: AppOptions): Express {
  const app = express();
  const security = { https: env.BASE_URL.startsWith("https://"), development: env.NODE_ENV === "development" };
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(closeWhileDraining(draining));
  app.use(requestLogging(logger));
  // Live updates (ADR 0057): a stream, not a page, so before the page tags (never a write, never
  // kept) and before compression() (which would hold events back).
  const streams = live ?? liveStreams({ services, clientIp: clientAddress, draining });
  app.all("/live", streams.handle);
  // What each request reads and writes (loaders and domain services record it), and the bump after a write.
  app.use(pageTagsMiddleware(pageCache, audit));
  app.use(securityHeaders(security));
  app.use(methods());
  app.use(refuseNulInUrl());
  // Before pageCapture: a slashed address is answered with its canonical one, never kept (ADR 0046).
  app.use(trailingSlashRedirect());
  app.use(compression());
  // After compression(), so it sees the identity bytes of the pages it stores.
  app.use(pageCapture(pageCache, security, audit));

  app.get("/healthz", async (_req, res) => {
    res.set("Cache-Control", "no-store");
    // A balancer must stop sending at once, while the requests already here still finish.
    if (draining()) return void res.status(503).json({ status: "draining" });
    try {
      await sql`select 1`.execute(services.db);
      res.json({ status: "ok" });
    } catch (error) {
      // An outage is an operating condition (warn); the request line carries the 503.
      res.locals.logger.warn({ err: error }, "health check failed");
      res.status(503).json({ status: "unavailable" });
    }
  });

  /**
   * Readiness (issue 33), apart from liveness: whether this instance should get traffic now. The
   * database answers, it holds every migration this code knows, and the page cache hears the other
   * instances' writes (on PostgreSQL; a cache that cannot would serve their pages stale). A balancer
   * or an orchestrator routes by this; /healthz only says whether to restart the process.
   */
  app.get("/readyz", async (_req, res) => {
    res.set("Cache-Control", "no-store");
    if (draining()) return void res.status(503).json({ status: "draining" });
    const checks = { database: false, migrations: false, cacheBus: cacheBusListening() };
    try {
      await sql`select 1`.execute(services.db);
      checks.database = true;
      checks.migrations = (await pendingMigrations(services.db)) === 0;
    } catch (error) {
      res.locals.logger.warn({ err: error }, "readiness check failed");
    }
    const ready = checks.database && checks.migrations && checks.cacheBus;
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "not ready", checks });
  });

  app.use(bodyLimit(MAX_BODY_BYTES, async (req) => routeBodyLimit(await build(), req.path)));
  // RFC 8058 one-click unsubscribe: the mail provider may post from its own origin. The token in
  // the address is the only authority this route uses (no cookie), so a forged post gains nothing:
  // these alone are let through the origin checks (ours and React Router's).
  app.post(["/newsletter/unsubscribe", "/notifications/unsubscribe"], (req, _res, next) => {
    delete req.headers.origin;
    delete req.headers["sec-fetch-site"];
    next();
  });
  app.use(sameOriginWrites(() => [new URL(env.BASE_URL).origin]));
  assets(app);

  // One React Router handler per build. Given a build *function*, React Router re-derives its
  // whole handler (createStaticHandler, flattening and ranking every route) on every request, in
  // case development swapped the build: about 10% of an uncached page (issue 13). The build function
  // still runs each time, so Vite's new build in development gets a handler of its own.
  const handlers = new WeakMap<ServerBuild, ReturnType<typeof createRequestHandler>>();
  const handlerFor = (current: ServerBuild) => {
    let handler = handlers.get(current);
    if (!handler) {
      handler = createRequestHandler({
        // Counted so that a write's bump waits for its action even when its client went away.
        build: guardDatabaseUnavailable(countWriteHandlers(current)),
        mode: env.NODE_ENV,
        getLoadContext(req, res) {
          const context = new RouterContextProvider();
          context.set(servicesContext, services);
          context.set(requestContext, {
            requestId: res.locals.requestId,
            clientIp: clientAddress(req),
            nonce: res.locals.nonce,
            document: !req.path.endsWith(".data"),
            logger: res.locals.logger,
          });
          return context;
        },
      });
      handlers.set(current, handler);
    }
    return handler;
  };
  app.use(async (req, res, next) => {
    let current: ServerBuild;
    try {
      current = await build();
    } catch (error) {
      next(error);
      return;
    }
    // The route's cache policy decides whether its page may be kept (route-policies.ts).
    const tags = isCacheCandidate(req) ? currentPageTags() : undefined;
    const route = tags || metrics ? matchedRoute(current, req.path) : undefined;
    if (tags) tags.route = { id: route?.id, policy: route ? cachePolicyOf(route.id) : undefined };
    nameRoute(res, route?.id);
    return handlerFor(current)(req, res, next);
  });
  return app;
}

export interface SiteOptions extends Omit<AppOptions, "pageCache" | "audit" | "live"> {
  /** Overrides for the invalidation bus on PostgreSQL (tests give each site a channel of its own). */
  invalidation?: { url?: string; channel?: string };
  /**
   * The live streams' limits, and where their PostgreSQL bridge listens: by default the invalidation
   * bus's database, on its channel with "_live" added when that is given (tests), else "ipos_live".
   */
  live?: Omit<LiveStreamsOptions, "services" | "clientIp" | "draining"> & { url?: string; channel?: string };
  /** The operators' metrics (issue 33): every response counted and timed, the cache and streams watched. */
  metrics?: SiteMetrics;
}

export interface Site {
  /** The node:http handler: the page cache first, then the Express app. */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  pageCache: PageCache | undefined;
  /** The page-cache audit and what it found (PAGE_CACHE_AUDIT); undefined when off. */
  audit: CacheAudit | undefined;
  bus: InvalidationBus & { backendPid?: () => number | undefined; listening?: () => boolean };
  /** The live event streams and, on PostgreSQL, their bridge between instances (ADR 0057). */
  live: { streams: LiveStreams; bridge: LiveBridge | undefined; start(): Promise<void> };
  /** Stops the invalidation bus and judges what the audit still holds (the database is the caller's). */
  close(): Promise<void>;
}

/**
 * The whole site as one request handler: the page cache in front of the Express app (ADR 0026,
 * members' pages ADR 0040). `start` serves it, and the tests' startSite too, so every site test runs with the
 * cache on. Call `bus.start()` before listening.
 */
export function createSite(options: SiteOptions): Site {
  const { env, services, logger } = options;
  // Vite's development pages carry its own inline scripts and change on every edit: never cached.
  const enabled = env.PAGE_CACHE && env.NODE_ENV !== "development";
  const pageCache = enabled ? new PageCache({ ttlMs: env.PAGE_CACHE_TTL_SECONDS * 1000, maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024 }) : undefined;
  // The audit sees the SQL through the services' query observers, installed only when it is on.
  if (env.PAGE_CACHE_AUDIT && !services.queries) throw new Error("PAGE_CACHE_AUDIT is on but the database was opened without query observers");
  const audit = env.PAGE_CACHE_AUDIT
    ? new CacheAudit({
        file: env.PAGE_CACHE_AUDIT_FILE,
        onViolation: (violation) => logger.error({ violation }, "page cache audit: a tag is missing"),
      })
    : undefined;
  const stopObserving = audit && services.queries!.observe(audit.observer);
  const { url: liveUrl, channel: liveChannel, ...liveLimits } = options.live ?? {};
  const streams = liveStreams({ ...liveLimits, services, draining: options.draining, clientIp: clientAddress });
  // The bus is made after the app, which asks it whether it listens only when a readiness probe comes.
  const heard: { bus?: Site["bus"] } = {};
  const app = createApp({ ...options, pageCache, audit, live: streams, cacheBusListening: () => heard.bus?.listening?.() ?? true });
  const url = options.invalidation?.url ?? env.DATABASE_URL;
  const bus: Site["bus"] =
    pageCache && services.engine === "postgres" && url
      ? postgresBus({
          cache: pageCache,
          url,
          channel: options.invalidation?.channel ?? DEFAULT_CHANNEL,
          logger,
          notify: (channel, payload) => sql`select pg_notify(${channel}, ${payload})`.execute(services.db),
        })
      : localBus();
  // Another instance's events reach this one's streams through the database (a bus of our own only:
  // the bridge hands events to its local subscribers).
  const local = "deliver" in services.live ? (services.live as LocalLiveBus) : undefined;
  const bridgeUrl = liveUrl ?? options.invalidation?.url ?? env.DATABASE_URL;
  const bridge =
    local && services.engine === "postgres" && bridgeUrl
      ? postgresLiveBridge({
          bus: local,
          url: bridgeUrl,
          channel: liveChannel ?? (options.invalidation?.channel ? `${options.invalidation.channel}_live` : DEFAULT_LIVE_CHANNEL),
          logger,
          notify: (channel, payload) => sql`select pg_notify(${channel}, ${payload})`.execute(services.db),
          // Events sent while this instance could not hear them are lost: browsers reconnect and read afresh.
          onGap: () => streams.endAll(),
        })
      : undefined;
  // Who a raw request is from, before Express has seen it: Express's own reading of X-Forwarded-For
  // under "trust proxy", as rate limits and views use (the page cache's hits, the line's shares).
  const clientIpOf = (req: IncomingMessage) => {
    Object.setPrototypeOf(req, app.request);
    return clientAddress(req as unknown as express.Request);
  };
  const front = pageCacheFront({
    cache: pageCache,
    app,
    draining: options.draining,
    clientIp: clientIpOf,
    verifyViewer: (viewer) => viewerStillValid(services.db, viewer),
    onError: (error) => logger.warn({ err: error }, "page cache: a hit's side effect or session check failed"),
  });
  // Page reads are answered a few at a time, first come first served, hits and misses alike (ADR 0077).
  // One client (an address with many connections) may hold a tenth of the line, not all of it.
  const gate =
    env.PAGES_AT_ONCE > 0
      ? admission({
          limit: env.PAGES_AT_ONCE,
          maxWaiting: 2000,
          maxWaitingPerClient: 200,
          // Two pages begun a turn at most (ADR 0077's addendum): turns short enough for timers,
          // writes and database replies; the mix's throughput was as before or better.
          perTurn: 2,
          clientOf: clientIpOf,
          maxWaitMs: 15_000,
          retryAfterSeconds: 2,
        })
      : undefined;
  const metrics = options.metrics;
  metrics?.watch({ pageCache, openStreams: () => streams.open(), db: services.db, admission: gate });
  // The event stream goes straight to the app: nothing of it is looked up in or kept by the cache.
  const handler = (req: IncomingMessage, res: ServerResponse) => (isLiveRequest(req.url) ? app(req, res) : gate ? gate(req, res, front) : front(req, res));
  heard.bus = bus;
  return {
    handler: metrics ? metrics.instrument(handler) : handler,
    pageCache,
    audit,
    bus,
    live: { streams, bridge, start: async () => bridge?.start() },
    async close() {
      streams.close();
      await bridge?.stop();
      await bus.stop();
      await audit?.flush();
      stopObserving?.();
    },
  };
}

export interface StartOptions {
  vite?: ViteDevServer;
  clientDir?: string;
}

/**
 * The production build, imported once: an `import()` per request still resolved the specifier
 * through Node's module loader each time (about 1.5% of a signed-in page, issue 13). A failed
 * import is tried again by the next request. Exported for the HTTP tests, which serve this bundle.
 */
export function productionBuild() {
  let loaded: Promise<ServerBuild> | undefined;
  return () =>
    (loaded ??= (import("virtual:react-router/server-build") as Promise<ServerBuild>).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}

/** Starts the whole site: configuration, database, HTTP server, and a graceful stop on SIGTERM. */
export async function start({ vite, clientDir = "build/client" }: StartOptions = {}): Promise<Server> {
  const env = loadEnv();
  const logger = pino({ level: env.LOG_LEVEL, base: { service: "inner-peace-outer-strength" } });
  // The operators' metrics, kept only when they have somewhere to be read (METRICS_PORT).
  const metrics = env.METRICS_PORT ? createMetrics() : undefined;
  const services = await createServices(env, logger, migrateToLatest, { onQuery: metrics?.observeQuery });
  // Sends the mail outbox (ADR 0025); each round first queues the event reminders that fell due,
  // the notification digests (once a minute, ADR 0058), the evening check-in reminders and the
  // bookmarks' reminders (issue 30), and, once
  // an hour, drops reply counts older than the featured window, pictures uploaded a day ago that no
  // post took, mail sent a month ago and rate-limit hits a day old.
  const stopOutbox = startOutboxWorker(services, {
    leaseMs: env.MAIL_LEASE_SECONDS * 1000,
    jobs: [
      reminderJob(env.BASE_URL),
      digestJob(env.BASE_URL, env.AUTH_SECRET),
      checkInReminderJob(),
      bookmarkReminderJob(),
      replyHourPruningJob(),
      postImageSweepJob(),
      outboxPruningJob(),
      rateLimitPruningJob(),
      // BACKUP_EVERY_HOURS (ADR 0073): a backup when the newest in BACKUP_DIR is that old.
      backupJob(env),
    ],
  });
  let draining = false;
  const site = createSite({
    env,
    logger,
    services,
    metrics,
    draining: () => draining,
    assets(app) {
      if (vite) {
        app.use(vite.middlewares);
        return;
      }
      // Hashed file names never change content, so browsers may keep them for a year. No directory
      // redirect: "/assets" to "/assets/" and the trailing-slash redirect back would loop (ADR 0046).
      // Their brotli and gzip copies were made at build time (ADR 0038); anything else is a plain file.
      app.use(
        "/assets",
        precompressedAssets(`${clientDir}/assets`),
        express.static(`${clientDir}/assets`, { immutable: true, maxAge: "1y", index: false, redirect: false }),
      );
      // The build's other public files (favicon.svg) by name: a static middleware in front of every
      // page would stat the disk for each request's path first (about 1% of a page's time, issue 13).
      const files = new Set(
        fs
          .readdirSync(clientDir, { withFileTypes: true })
          .filter((f) => f.isFile())
          .map((f) => `/${f.name}`),
      );
      const serveFile = express.static(clientDir, { maxAge: "1h", index: false });
      app.use((req, res, next) => (files.has(req.path) ? serveFile(req, res, next) : next()));
    },
    build: vite ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild> : productionBuild(),
  });

  await site.bus.start();
  await site.live.start();
  const server = createServer(site.handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.PORT, env.HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  logger.info({ port, database: env.DATABASE_ENGINE, baseUrl: env.BASE_URL }, `listening on http://localhost:${port}`);
  const metricsHttp = metrics && metricsServer(metrics, { token: env.METRICS_TOKEN, logger });
  if (metricsHttp) {
    await new Promise<void>((resolve, reject) => {
      metricsHttp.once("error", reject);
      metricsHttp.listen(env.METRICS_PORT, env.METRICS_HOST, () => resolve());
    });
    const at = metricsHttp.address();
    logger.info({ metricsPort: typeof at === "object" && at ? at.port : env.METRICS_PORT, metricsHost: env.METRICS_HOST }, "metrics served");
  }

  /**
   * A graceful stop within SHUTDOWN_BOUND_MS (ADR 0015): drain first (healthz 503, every response
   * closes its connection, new connections still served) so a balancer moves away without a single
   * refused or reset connection; then stop listening, close idle sockets, let the requests in
   * flight finish, close the database and exit 0. Only a request still running at the bound is cut.
   */
  const stop = (signal: string) => {
    if (draining) return;
    draining = true;
    logger.info({ signal, drainSeconds: env.SHUTDOWN_DRAIN_SECONDS }, "draining before shutdown");
    // Open event streams would hold the stop up to its bound: ended now, their browsers reconnect
    // after the retry the stream gave them (to another instance by then).
    site.live.streams.endAll();
    // No new outbox round starts; the one in flight finishes before the database closes (mail not
    // sent yet stays queued for the next start).
    const outboxStopped = stopOutbox();
    const force = setTimeout(() => {
      logger.warn("shutdown bound reached; closing the connections still open");
      server.closeAllConnections();
      process.exit(1);
    }, SHUTDOWN_BOUND_MS);
    force.unref();
    setTimeout(() => {
      // setImmediate runs right after a poll phase, which has just accepted the connections the
      // kernel had queued; closing the listener any earlier would reset them.
      setImmediate(() => {
        logger.info("no longer accepting connections");
        server.close(async () => {
          clearInterval(sweep);
          metricsHttp?.close();
          await outboxStopped.catch(() => {});
          await site.close().catch(() => {});
          await services.db.destroy().catch(() => {});
          await vite?.close();
          logger.info("stopped");
          process.exit(0);
        });
        server.closeIdleConnections();
        // A request in flight without `Connection: close` leaves its socket idle when it ends.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
      });
    }, env.SHUTDOWN_DRAIN_SECONDS * 1000);
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  return server;
}

/** Kubernetes' default terminationGracePeriodSeconds is 30; ours must sit well inside it. */
export const SHUTDOWN_BOUND_MS = 10_000;
