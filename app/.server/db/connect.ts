import { DatabaseSync } from "node:sqlite";
import fs from "node:fs";
import path from "node:path";
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type LogEvent,
  type QueryResult,
} from "kysely";
import pg from "pg";
import { NodeSqliteDialect } from "./node-sqlite-dialect";
import { preparingClient } from "./prepared-statements";
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
  /** PostgreSQL: statements sent as named prepared statements (ADR 0079); on unless false. */
  preparedStatements?: boolean;
  /** Shown in pg_stat_activity, so an operator (or a test) can find this process's connections. */
  applicationName?: string;
  /** Told about a pooled PostgreSQL connection that broke; the pool drops it and opens a new one. */
  onConnectionError?: (error: Error) => void;
  /** Told about every statement the database runs (the page-cache audit); none means no wrapper at all. */
  queries?: QueryObservers;
  /** Told how long each statement took, in milliseconds (the operators' metrics, issue 33). */
  onQuery?: (milliseconds: number) => void;
}

/**
 * Told of a statement when it is sent, in the caller's async context (so a request's own), and
 * returns what to call once it ran: with its result, or undefined when it failed.
 */
export type QueryObserver = (query: CompiledQuery) => ((result: QueryResult<unknown> | undefined) => void) | void;

/**
 * The observers of one database's statements (the page-cache audit, ADR 0051). Handed around on
 * the services object, not held by a module: the HTTP tests load the server from a bundle whose
 * modules are other instances than the tests' own.
 */
export interface QueryObservers {
  /** Adds an observer; returns its removal. */
  observe(observer: QueryObserver): () => void;
  /** @internal the wrapped connections' side */
  sent(query: CompiledQuery): Array<(result: QueryResult<unknown> | undefined) => void> | undefined;
}

export function queryObservers(): QueryObservers {
  let observers: QueryObserver[] = [];
  return {
    observe(observer) {
      observers = [...observers, observer];
      return () => void (observers = observers.filter((o) => o !== observer));
    },
    sent(query) {
      let done: Array<(result: QueryResult<unknown> | undefined) => void> | undefined;
      for (const observer of observers) {
        const after = observer(query);
        if (after) (done ??= []).push(after);
      }
      return done;
    },
  };
}

/**
 * The dialect with every connection it hands out reporting its statements, transactions' included
 * (Kysely runs those on one connection it acquired). Only `executeQuery` and `streamQuery` are
 * intercepted; everything else (the PostgreSQL driver's private release hook) reaches the connection.
 */
function observedDialect(dialect: Dialect, queries: QueryObservers): Dialect {
  const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const observed = (connection: DatabaseConnection): DatabaseConnection => {
    let proxy = wrapped.get(connection);
    if (!proxy) {
      proxy = new Proxy(connection, {
        get(target, property) {
          if (property === "executeQuery") {
            return async (query: CompiledQuery, ...rest: unknown[]) => {
              const done = queries.sent(query);
              let result: QueryResult<unknown> | undefined;
              try {
                result = await (target.executeQuery as (q: CompiledQuery, ...r: unknown[]) => Promise<QueryResult<unknown>>).call(target, query, ...rest);
                return result;
              } finally {
                if (done) for (const after of done) after(result);
              }
            };
          }
          if (property === "streamQuery") {
            return (query: CompiledQuery, ...rest: unknown[]) => {
              queries.sent(query);
              return (target.streamQuery as (q: CompiledQuery, ...r: unknown[]) => AsyncIterableIterator<unknown>).call(target, query, ...rest);
            };
          }
          const value = Reflect.get(target, property, target) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      wrapped.set(connection, proxy);
    }
    return proxy;
  };
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      return new Proxy(driver, {
        get(target, property) {
          if (property === "acquireConnection") {
            return async (...args: unknown[]) =>
              observed(await (target.acquireConnection as (...a: unknown[]) => Promise<DatabaseConnection>).apply(target, args));
          }
          const value = Reflect.get(target, property, target) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  };
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
      ...(options.preparedStatements === false ? {} : { Client: preparingClient() }),
    });
    // A backend that dies (pg_terminate_backend, a restart, a network blip) makes its client emit
    // `error`: on the pool while idle, on the client itself while checked out. Without a listener
    // Node turns that into an uncaught exception that ends the process. The query in flight is
    // rejected on its own, and pg-pool discards the broken client, so listening is all it takes.
    const report = (error: Error) => options.onConnectionError?.(error);
    pool.on("error", report);
    pool.on("connect", (client) => {
      client.on("error", report);
      // No parallel workers (ADR 0076): a request is one backend's work, and starting two workers
      // cost a search 8 ms for 0.3 ms of theirs; under load the cores they would take serve other
      // requests. The planner chose them from estimates it has no statistics for (an expression
      // index's array). A client runs its queries in order, so this one runs before any other;
      // a SET rather than a startup option, which PgBouncer refuses.
      client.query("set max_parallel_workers_per_gather = 0").catch(report);
    });
    const db = new Kysely<Database>({ dialect: withObservers(new PostgresDialect({ pool }), options.queries), log: queryTimer(options.onQuery) });
    pools.set(db, pool);
    return db;
  }
  const file = options.sqlitePath ?? "./data/site.db";
  return new Kysely<Database>({ dialect: withObservers(new NodeSqliteDialect(() => openSqlite(file)), options.queries), log: queryTimer(options.onQuery) });
}

const pools = new WeakMap<Kysely<Database>, pg.Pool>();

/** A PostgreSQL database's pool as it stands (connections open, idle, and requests waiting for one); undefined on SQLite. */
export function poolUse(db: Kysely<Database>): { total: number; idle: number; waiting: number } | undefined {
  const pool = pools.get(db);
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/** Kysely's log hook, timing every statement (failed ones too), or none at all. */
function queryTimer(onQuery: ((milliseconds: number) => void) | undefined) {
  return onQuery && ((event: LogEvent) => onQuery(event.queryDurationMillis));
}

function withObservers(dialect: Dialect, queries: QueryObservers | undefined) {
  return queries ? observedDialect(dialect, queries) : dialect;
}

export function engineOf(db: Pick<Kysely<any>, "getExecutor">): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}
