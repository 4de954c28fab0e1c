// The browser suite with the server on PostgreSQL (`npm run test:e2e:pg`, ADR 0018): creates a fresh
// database for this run, runs Playwright against it (extra arguments go to `playwright test`), and
// drops the database afterwards, whatever the outcome.
//   E2E_PG_ADMIN_URL  where to create it (default postgres://postgres@127.0.0.1:5432/postgres)
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";

const adminUrl = process.env.E2E_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
// Letters, digits and _ only, so the name needs no quoting rules beyond the plain double quotes.
const name = `ipos_e2e_${randomBytes(6).toString("hex")}`;
const databaseUrl = new URL(adminUrl);
databaseUrl.pathname = `/${name}`;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl, application_name: "ipos-e2e-pg" });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

await admin(`create database "${name}"`);
console.log(`e2e on PostgreSQL: database ${name}`);
let code: number;
try {
  code = await new Promise<number>((resolve, reject) => {
    const child = spawn("playwright", ["test", ...process.argv.slice(2)], {
      stdio: "inherit",
      env: { ...process.env, E2E_DATABASE_URL: databaseUrl.toString() },
    });
    // Ctrl-C reaches Playwright too (same process group); we only wait for it to finish, then drop.
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
    child.on("error", reject);
    child.on("exit", (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
} finally {
  // FORCE ends the connections a server that did not stop cleanly may have left (PostgreSQL 13+).
  await admin(`drop database if exists "${name}" with (force)`);
  console.log(`e2e on PostgreSQL: dropped ${name}`);
}
process.exit(code);
