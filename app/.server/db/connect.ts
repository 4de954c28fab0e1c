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
}

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
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = options.sqlitePath ?? "./data/site.db";
  return new Kysely<Database>({ dialect: new NodeSqliteDialect(() => openSqlite(file)) });
}

export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}
