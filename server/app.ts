import "react-router";
import type { Server } from "node:http";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Express } from "express";
import pino, { type Logger } from "pino";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { requestContext, servicesContext, type AppServices } from "~/.server/context";
import { loadEnv, type Env } from "~/.server/env";
import { createServices } from "~/.server/services";
import { sql } from "kysely";
import { bodyLimit, requestLogging, sameOriginWrites, securityHeaders } from "./http";

export interface AppOptions {
  env: Env;
  logger: Logger;
  services: AppServices;
  /** Serves the browser assets: Vite's middleware in development, build/client in production. */
  assets: (app: Express) => void;
  build: () => Promise<ServerBuild>;
}

export function createApp({ env, logger, services, assets, build }: AppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(requestLogging(logger));
  app.use(securityHeaders({ https: env.BASE_URL.startsWith("https://"), development: env.NODE_ENV === "development" }));
  app.use(compression());

  app.get("/healthz", async (_req, res) => {
    try {
      await sql`select 1`.execute(services.db);
      res.set("Cache-Control", "no-store").json({ status: "ok" });
    } catch (error) {
      res.locals.logger.error({ err: error }, "health check failed");
      res.status(503).set("Cache-Control", "no-store").json({ status: "unavailable" });
    }
  });

  app.use(bodyLimit());
  app.use(sameOriginWrites(() => [new URL(env.BASE_URL).origin]));
  assets(app);

  app.use(
    createRequestHandler({
      build,
      mode: env.NODE_ENV,
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(servicesContext, services);
        context.set(requestContext, {
          requestId: res.locals.requestId,
          clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
          nonce: res.locals.nonce,
          logger: res.locals.logger,
        });
        return context;
      },
    }),
  );
  return app;
}

export interface StartOptions {
  vite?: ViteDevServer;
  clientDir?: string;
}

/** Starts the whole site: configuration, database, HTTP server, and a graceful stop on SIGTERM. */
export async function start({ vite, clientDir = "build/client" }: StartOptions = {}): Promise<Server> {
  const env = loadEnv();
  const logger = pino({ level: env.LOG_LEVEL, base: { service: "inner-peace-outer-strength" } });
  const services = await createServices(env, logger);
  const app = createApp({
    env,
    logger,
    services,
    assets(app) {
      if (vite) {
        app.use(vite.middlewares);
        return;
      }
      // Hashed file names never change content, so browsers may keep them for a year.
      app.use("/assets", express.static(`${clientDir}/assets`, { immutable: true, maxAge: "1y", index: false }));
      app.use(express.static(clientDir, { maxAge: "1h", index: false }));
    },
    build: vite
      ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
      : () => import("virtual:react-router/server-build"),
  });

  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(env.PORT, env.HOST, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  logger.info({ port, database: env.DATABASE_ENGINE, baseUrl: env.BASE_URL }, `listening on http://localhost:${port}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // Finish the requests in flight, then close the database; give up after 10 s.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(async () => {
      await services.db.destroy().catch(() => {});
      await vite?.close();
      logger.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  return server;
}
