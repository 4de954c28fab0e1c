import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumPath } from "./scripts/chromium-path.js";

// The built site, started as `npm start` starts it, on a fresh database with demo content: SQLite in
// DATA_DIR, or the PostgreSQL database in E2E_DATABASE_URL (`npm run test:e2e:pg` makes one per run).
const PORT = Number(process.env.E2E_PORT ?? 3210);
// Workers load this file again; the environment they inherit keeps them on the runner's folder.
const dataDir = (process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "ipos-e2e-")));
const databaseUrl = process.env.E2E_DATABASE_URL ?? "";
const chromium = chromiumPath();
// The server's page-cache audit (ADR 0051) writes what it finds here; the teardown fails the run on any.
const auditFile = (process.env.PAGE_CACHE_AUDIT_FILE ??= path.join(dataDir, "page-cache-audit.jsonl"));

export default defineConfig({
  testDir: "tests/e2e",
  globalTeardown: "./tests/e2e/support/page-cache-audit-teardown.ts",
  // Tests are independent (each account has its own address), so two workers share the one server.
  fullyParallel: true,
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 2,
  retries: process.env.CI ? 1 : 0,
  // A timeout says a test hangs, not that the site is slow (speed has its benchmarks): CI's machines
  // run Chromium at a fraction of a workstation's speed (most of it the kernel's, spawning renderer
  // processes), and a journey of twenty pages took 30 s there, so CI gives each test and each
  // expectation twice the room.
  timeout: process.env.CI ? 60_000 : 30_000,
  expect: { timeout: process.env.CI ? 10_000 : 5_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "off",
    launchOptions: {
      executablePath: chromium,
      // Shared memory on /dev/shm (a tmpfs), not files in /tmp, which is disk here: Playwright's own
      // --disable-dev-shm-usage is for containers whose /dev/shm holds 64 MB (measured: 9% off the screens project).
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
      ignoreDefaultArgs: ["--disable-dev-shm-usage"],
    },
  },
  projects: [
    // The seed's screens assert the demo content and its counts, so they run before any spec
    // that writes discussions, questions or answers into the shared server.
    { name: "screens", testMatch: ["screens.spec.ts", "accounts.spec.ts"], use: { ...devices["Desktop Chrome"], channel: undefined } },
    // Writes only newsletter subscriptions, which no other spec counts.
    { name: "newsletter", testMatch: ["newsletter.spec.ts"], use: { ...devices["Desktop Chrome"], channel: undefined } },
    {
      name: "content",
      testMatch: [
        "forum.spec.ts",
        "council.spec.ts",
        "accessibility.spec.ts",
        "newcomer.spec.ts",
        "forge-engage.spec.ts",
        "forge-share.spec.ts",
        "events.spec.ts",
        "challenges.spec.ts",
        "members.spec.ts",
        "page-cache.spec.ts",
        "navigation.spec.ts",
        "first-paint.spec.ts",
        "lockout.spec.ts",
        "layout.spec.ts",
        "dashboard.spec.ts",
        "notifications.spec.ts",
        "search.spec.ts",
        "reactions.spec.ts",
        "safety.spec.ts",
        "writing.spec.ts",
        "avatars.spec.ts",
      ],
      dependencies: ["screens"],
      use: { ...devices["Desktop Chrome"], channel: undefined },
    },
    // The link walker opens every page, questions too, and each visit counts a view: it runs last,
    // so it never moves a count another spec is watching.
    { name: "links", testMatch: ["links.spec.ts"], dependencies: ["content"], use: { ...devices["Desktop Chrome"], channel: undefined } },
  ],
  webServer: {
    command: "node server/index.js",
    url: `http://localhost:${PORT}/healthz`,
    // E2E_REUSE_SERVER=1 drives a server already listening on E2E_PORT (handy while iterating).
    reuseExistingServer: process.env.E2E_REUSE_SERVER === "1",
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      // Empty means SQLite in DATA_DIR (an empty variable counts as unset), whatever the shell has.
      DATABASE_URL: databaseUrl,
      BASE_URL: `http://localhost:${PORT}`,
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      PAGE_CACHE_AUDIT: "on",
      PAGE_CACHE_AUDIT_FILE: auditFile,
    },
  },
});
