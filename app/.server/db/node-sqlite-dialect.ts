import type { DatabaseSync, SQLInputValue } from "node:sqlite";
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

class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.#db.prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters.map(toSqliteValue);
    if (statement.columns().length > 0) {
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
