import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    // `npm run test:pg` runs the integration suite alone; a file named after it narrows that run
    // (an include passed on the command line would be ORed with the filter and run every file).
    include:
      process.env.TEST_DB === "postgres"
        ? ["tests/integration/**/*.test.ts"]
        : ["app/**/*.test.ts", "tests/lint/**/*.test.ts", "tests/integration/**/*.test.ts", "database/**/*.test.ts", "server/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
