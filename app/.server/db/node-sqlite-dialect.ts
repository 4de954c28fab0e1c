import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from "node:sqlite";
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
import { Lru } from "~/lib/lru";

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

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\s/i;

/** Distinct SQL texts kept prepared: the site's queries are a few hundred shapes at most. */
const STATEMENTS_KEPT = 500;

/**
 * A plain object (loaders and JSON serialise it everywhere) with the columns in the statement's
 * order: every row of one statement gets the same shape, so V8 keeps them fast. A name that occurs
 * twice keeps its last value, as node:sqlite's row objects did.
 */
function rowObject(columns: readonly string[], values: readonly SQLOutputValue[]): Record<string, SQLOutputValue> {
  const row: Record<string, SQLOutputValue> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i]!;
  return row;
}

class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync;
  /**
   * Prepared statements by SQL text, least recently used first. Kysely compiles a query to the same
   * text every time (values are parameters), so preparing (parsing and planning) it again on every
   * execution was wasted work: about a third of the time a signed-in discussion page spent in
   * SQLite (issue 13). Reusing a statement is safe here: node:sqlite runs it to completion
   * synchronously, and SQLite re-prepares it by itself after a schema change.
   */
  readonly #statements = new Lru<string, { statement: StatementSync; columns: string[] | null }>(STATEMENTS_KEPT);

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #prepared(sql: string) {
    let entry = this.#statements.get(sql);
    if (!entry) {
      const statement = this.#db.prepare(sql);
      const columns = statement.columns().map((column) => column.name);
      // Rows come as arrays and become objects below: node:sqlite's own row objects are slow to
      // build and slower to copy (a 50-reply page: 290 µs as objects copied, 110 µs this way).
      if (columns.length > 0) statement.setReturnArrays(true);
      entry = { statement, columns: columns.length > 0 ? columns : null };
      this.#statements.set(sql, entry);
    }
    return entry;
  }

  #renamed(sql: string, statement: StatementSync) {
    const columns = statement.columns().map((column) => column.name);
    this.#statements.set(sql, { statement, columns });
    return columns;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { statement, columns } = this.#prepared(compiledQuery.sql);
    const parameters = compiledQuery.parameters.map(toSqliteValue);
    if (columns) {
      const rows = statement.all(...parameters) as unknown as SQLOutputValue[][];
      // SQLite re-prepares a statement whose tables changed under it (another connection's
      // migration), and `select *` may then give other columns than the names kept.
      const names = rows.length > 0 && rows[0]!.length !== columns.length ? this.#renamed(compiledQuery.sql, statement) : columns;
      return { rows: rows.map((values) => rowObject(names, values)) as R[] };
    }
    const { changes, lastInsertRowid } = statement.run(...parameters);
    // This connection changed the schema: the column names kept for its statements may be stale.
    if (SCHEMA_CHANGE.test(compiledQuery.sql)) this.#statements.clear();
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
