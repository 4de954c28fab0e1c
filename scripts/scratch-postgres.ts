// A PostgreSQL database of one run's own, for the scripts that must not touch any other: the
// benchmarks on PostgreSQL and the browser suite's PostgreSQL run (e2e-pg.ts).
import { randomBytes } from "node:crypto";
import pg from "pg";

/** Where the scripts create their databases unless told otherwise. */
const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * A PostgreSQL database of this run's own on `adminUrl`'s server: `ipos_<label>_` and random hex, so
 * letters, digits and _ only (the name needs no quoting rules beyond the plain double quotes).
 * `applicationName` tells the script's admin connections apart in pg_stat_activity.
 */
export function scratchPostgres(label: string, applicationName: string, adminUrl = DEFAULT_ADMIN_URL) {
  const name = `ipos_${label}_${randomBytes(6).toString("hex")}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  async function admin(statement: string) {
    const client = new pg.Client({ connectionString: adminUrl, application_name: applicationName });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }
  return {
    name,
    url: url.toString(),
    create: () => admin(`create database "${name}"`),
    // WITH (FORCE) ends the connections a pool or a server that did not stop cleanly still holds (PostgreSQL 13+).
    drop: () => admin(`drop database if exists "${name}" with (force)`),
  };
}
