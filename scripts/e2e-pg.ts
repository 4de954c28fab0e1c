// The browser suite with the server on PostgreSQL (`npm run test:e2e:pg`, ADR 0018): creates a fresh
// database for this run, runs Playwright against it (extra arguments go to `playwright test`), and
// drops the database afterwards, whatever the outcome.
//   E2E_PG_ADMIN_URL  where to create it (default postgres://postgres@127.0.0.1:5432/postgres)
import { spawn } from "node:child_process";
import { scratchPostgres } from "./scratch-postgres";

const database = scratchPostgres("e2e", "ipos-e2e-pg", process.env.E2E_PG_ADMIN_URL);

await database.create();
console.log(`e2e on PostgreSQL: database ${database.name}`);
let code: number;
try {
  code = await new Promise<number>((resolve, reject) => {
    const child = spawn("playwright", ["test", ...process.argv.slice(2)], {
      stdio: "inherit",
      env: { ...process.env, E2E_DATABASE_URL: database.url },
    });
    // Ctrl-C reaches Playwright too (same process group); we only wait for it to finish, then drop.
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
    child.on("error", reject);
    child.on("exit", (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
} finally {
  await database.drop();
  console.log(`e2e on PostgreSQL: dropped ${database.name}`);
}
process.exit(code);
