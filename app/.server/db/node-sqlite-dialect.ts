import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from "kysely";

/**
 * Kysely dialect over Node's built-in `node:sqlite` (ADR 0003). Kysely's own SqliteDialect is shaped
 * for better-sqlite3, a native addon we do not want to compile. The query compiler, adapter and
 * introspector are Kysely's SQLite ones; only the driver is ours. Kysely serialises access to the
 * single connection itself, because SqliteAdapter says it supports one connection only.
 */
export class NodeSqliteDialect implements Dialect {
  readonly #open: () => DatabaseSync;

  constructor(open: () => DatabaseSync) {
    this.#open = open;
  }

  createDriver(): Driver {
    return new NodeSqliteDriver(this.#open);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

class NodeSqliteDriver implements Driver {
  readonly #open: () => DatabaseSync;
  #db: DatabaseSync | undefined;
  #connection: NodeSqliteConnection | undefined;

  constructor(open: () => DatabaseSync) {
    this.#open = open;
  }

  async init() {
    this.#db = this.#open();
    this.#connection = new NodeSqliteConnection(this.#db);
  }
  async acquireConnection() {
    return this.#connection!;
  }
  async beginTransaction(connection: DatabaseConnection) {
    // IMMEDIATE takes the write lock up front, so two processes on one file wait on busy_timeout
    // instead of failing with SQLITE_BUSY when a reader later tries to write.
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }
  async savepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }
  async releaseConnection() {}
  async destroy() {
    if (this.#db?.isOpen) this.#db.close();
  }
}

/** node:sqlite binds only numbers, bigints, strings, null and bytes. */
export function toSqliteValue(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "string") return value;
  if (value instanceof Uint8Array) return value;
  return JSON.stringify(value);
}

/** Distinct SQL texts kept prepared: the site's queries are a few hundred shapes at most. */
const STATEMENTS_KEPT = 500;

class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync;
  /**
   * Prepared statements by SQL text, least recently used first. Kysely compiles a query to the same
   * text every time (values are parameters), so preparing (parsing and planning) it again on every
   * execution was wasted work: about a third of the time a signed-in discussion page spent in
   * SQLite (issue 13). Reusing a statement is safe here: node:sqlite runs it to completion
   * synchronously, and SQLite re-prepares it by itself after a schema change.
   */
  readonly #statements = new Map<string, { statement: StatementSync; returnsRows: boolean }>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #prepared(sql: string) {
    let entry = this.#statements.get(sql);
    if (entry) {
      this.#statements.delete(sql);
    } else {
      const statement = this.#db.prepare(sql);
      entry = { statement, returnsRows: statement.columns().length > 0 };
      if (this.#statements.size >= STATEMENTS_KEPT) this.#statements.delete(this.#statements.keys().next().value!);
    }
    this.#statements.set(sql, entry);
    return entry;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { statement, returnsRows } = this.#prepared(compiledQuery.sql);
    const parameters = compiledQuery.parameters.map(toSqliteValue);
    if (returnsRows) {
      // node:sqlite gives null-prototype rows; plain objects serialise everywhere (loaders, JSON).
      return { rows: statement.all(...parameters).map((row) => ({ ...row })) as R[] };
    }
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return {
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.#db.prepare(compiledQuery.sql);
    for (const row of statement.iterate(...compiledQuery.parameters.map(toSqliteValue))) {
      yield { rows: [{ ...row } as R] };
    }
  }
}
