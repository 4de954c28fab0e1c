import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// `npm run test:pg` runs the integration suite alone; a file named after it narrows that run
// (an include passed on the command line would be ORed with the filter and run every file).
const postgres = process.env.TEST_DB === "postgres";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    environment: "node",
    pool: "forks",
    // Two files at a time even on a two-core machine (Vitest's default there is one): most of a
    // file's time is spent waiting on its database, so two overlap well (SQLite 353 s to 233 s,
    // PostgreSQL 427 s to 292 s). Three made timing-sensitive page-cache tests flaky.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      ...(postgres
        ? []
        : [
            {
              extends: true,
              test: {
                name: "unit",
                include: ["app/**/*.test.ts", "tests/lint/**/*.test.ts", "database/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
              },
            },
          ]),
      // Its global setup builds the site once for the run's HTTP test files (ADR 0055). A project's
      // global setup runs only when the run has files of that project, so a run of unit tests alone
      // builds nothing.
      { extends: true, test: { name: "integration", include: ["tests/integration/**/*.test.ts"], globalSetup: ["tests/integration/site-build.ts"] } },
    ],
  },
});
