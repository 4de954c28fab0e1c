import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import express from "express";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSite, ENGINE, type TestSite } from "./test-services";
import { loadApp } from "./site-server";

/*
 * server/app.ts keeps one React Router handler per build object (deriving it per request was ~10% of
 * an uncached page), yet still asks for the build on every request: in development Vite hands over
 * a new build after an edit, and that one must serve the next request.
 */
let site: TestSite;
let server: Server;
let base: string;
let current: ServerBuild;
let calls = 0;
let original: ServerBuild;

beforeAll(async () => {
  site = await createTestSite();
  const { createApp, build } = await loadApp();
  original = await build();
  current = original;
  const app = createApp({
    env: { ...site.services.env, NODE_ENV: "production" },
    logger: site.services.logger,
    services: site.services,
    assets: (a) => a.use(express.static("public")),
    build: async () => {
      calls += 1;
      return current;
    },
  });
  server = await new Promise<Server>((resolve) => {
    const s = createServer(app).listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await site.destroy();
});

/** The entry script the page imports: it names the build that rendered it. */
const entryScript = async () => {
  const html = await (await fetch(`${base}/faq`)).text();
  return /import\("([^"]*entry[^"]*)"\)|import "([^"]*entry[^"]*)"|src="([^"]*entry[^"]*)"/.exec(html)?.slice(1).find(Boolean);
};

describe(`the React Router handler and the build on ${ENGINE}`, () => {
  it("serves whichever build the build function returns now, and asks for it on every request", async () => {
    const before = calls;
    expect(await entryScript()).toBe(original.assets.entry.module);
    expect(await entryScript()).toBe(original.assets.entry.module);
    expect(calls - before).toBeGreaterThanOrEqual(2);

    current = { ...original, assets: { ...original.assets, entry: { ...original.assets.entry, module: "/assets/swapped-entry.js" } } };
    expect(await entryScript()).toBe("/assets/swapped-entry.js");
    current = original;
    expect(await entryScript()).toBe(original.assets.entry.module);
  });
});
