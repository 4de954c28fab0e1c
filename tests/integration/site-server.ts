import type { AddressInfo } from "node:net";
import { createServer as createHttpServer, type Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import express from "express";
import { afterAll, beforeAll, inject } from "vitest";
import { insertDemoContent } from "~/.server/db/demo-content";
import { describeViolations } from "../../server/page-cache/audit";
import { createTestSite, type TestSite } from "./test-services";

type AppModule = typeof import("../../server/app");
let bundle: Promise<AppModule> | undefined;

/**
 * The app as `npm start` serves it: this run's production build of server/app.ts (made once by
 * site-build.ts, ADR 0055), so the route modules are not compiled again in each file. The bundle
 * holds its own copies of the app's modules: the services the tests pass in are shared, the
 * module-level state of the tests' own imports of app code (page tags, contexts) is not.
 */
export async function loadApp() {
  const dir = inject("siteBuild");
  if (!dir) throw new Error("No build of the site: the integration project's global setup (site-build.ts) makes one");
  bundle ??= import(pathToFileURL(path.join(dir, "server/index.js")).href) as Promise<AppModule>;
  const { createApp, createSite, productionBuild } = await bundle;
  return { createApp, createSite, build: productionBuild() };
}

/**
 * The whole site over HTTP on a random loopback port, on the test site's database: the same front
 * as `npm start` (the anonymous page cache, then the app), so every site test runs with the cache on.
 * On PostgreSQL the cache listens in the site's database on a channel of its own (`invalidation`),
 * so parallel test files never invalidate each other; two instances of one site share it.
 */
export async function startSite(site: TestSite, options: { env?: Partial<TestSite["services"]["env"]> } = {}) {
  const { createSite, build } = await loadApp();
  const front = createSite({
    env: { ...site.services.env, NODE_ENV: "production", ...options.env },
    logger: site.services.logger,
    services: site.services,
    assets: (a) => a.use(express.static("public")),
    build,
    invalidation: site.invalidation,
  });
  await front.bus.start();
  const server = await new Promise<Server>((resolve) => {
    const s = createHttpServer(front.handler).listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    /** fetch with the headers a browser sends on a same-site form post. */
    post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
      return fetch(base + path, {
        method: "POST",
        redirect: "manual",
        headers: { origin: base, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(form).toString(),
      });
    },
    get(path: string, headers: Record<string, string> = {}) {
      return fetch(base + path, { redirect: "manual", headers });
    },
    /** The page cache and its invalidation bus, for tests that look inside. */
    front,
    /** Closes the site; throws when the page-cache audit found a missing tag (ADR 0051). */
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await front.close();
      const found = front.audit?.violations ?? [];
      if (found.length > 0) throw new Error(`The page-cache audit found ${found.length} missing tag(s):\n${describeViolations(found)}`);
    },
  };
}

/** Page text as a reader sees it: React's separators between text nodes removed. */
export const readable = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "");

/**
 * One test file's site over HTTP: a fresh database (with the demo content unless told otherwise)
 * and the app on a random port, opened before the file's tests and closed after them.
 */
export function siteOverHttp(options: { demo?: boolean } = {}) {
  const handle = {} as { site: TestSite; http: Awaited<ReturnType<typeof startSite>> };
  beforeAll(async () => {
    handle.site = await createTestSite();
    if (options.demo ?? true) await insertDemoContent(handle.site.services.db);
    handle.http = await startSite(handle.site);
  }, 60_000);
  afterAll(async () => {
    await handle.http.close();
    await handle.site.destroy();
  });
  return handle;
}
