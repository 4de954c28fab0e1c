import { DatabaseSync } from "node:sqlite";
import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresAdapter, PostgresDialect } from "kysely";
import pg from "pg";
import { NodeSqliteDialect } from "./node-sqlite-dialect";
import type { Database } from "./schema";

export type Db = Kysely<Database>;
export type Engine = "sqlite" | "postgres";

export interface DatabaseOptions {
  engine: Engine;
  /** SQLite file path (engine sqlite). */
  sqlitePath?: string;
  /** PostgreSQL connection string (engine postgres). */
  url?: string;
  /** PostgreSQL schema to use as search_path; the tests give each run its own. */
  schema?: string;
  poolSize?: number;
  /** Shown in pg_stat_activity, so an operator (or a test) can find this process's connections. */
  applicationName?: string;
  /** Told about a pooled PostgreSQL connection that broke; the pool drops it and opens a new one. */
  onConnectionError?: (error: Error) => void;
}

/** How long a request waits for a PostgreSQL connection before it fails (and gets a 503). */
export const PG_CONNECT_TIMEOUT_MS = 5_000;

export function openSqlite(file: string): DatabaseSync {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new DatabaseSync(file, { timeout: 5000 });
  // WAL lets readers go on while one writer writes; NORMAL is durable across process crashes.
  db.exec("pragma journal_mode = wal");
  db.exec("pragma synchronous = normal");
  db.exec("pragma foreign_keys = on");
  db.exec("pragma busy_timeout = 5000");
  return db;
}

// COUNT(*) and SUM() are int8 in PostgreSQL; our counts fit in a JS number, so read them as one.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export function createDatabase(options: DatabaseOptions): Db {
  if (options.engine === "postgres") {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      application_name: options.applicationName ?? "inner-peace-outer-strength",
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // A backend that dies (pg_terminate_backend, a restart, a network blip) makes its client emit
    // `error`: on the pool while idle, on the client itself while checked out. Without a listener
    // Node turns that into an uncaught exception that ends the process. The query in flight is
    // rejected on its own, and pg-pool discards the broken client, so listening is all it takes.
    const report = (error: Error) => options.onConnectionError?.(error);
    pool.on("error", report);
    pool.on("connect", (client) => client.on("error", report));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = options.sqlitePath ?? "./data/site.db";
  return new Kysely<Database>({ dialect: new NodeSqliteDialect(() => openSqlite(file)) });
}

export function engineOf(db: Pick<Kysely<any>, "getExecutor">): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}
