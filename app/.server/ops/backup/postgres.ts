import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { createDatabase, type Db } from "../../db/connect";
import { BackupError, copyPayload, type BackupManifest, type CheckedBackup, type PostgresTarget, type TableCounts } from "./backup-file";

/**
 * pg_dump, pg_restore and psql come from Debian's postgresql-client (ADR 0073). libpq gets the
 * password from the environment, not the command line, where any user's `ps` would show it.
 */
function libpq(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** A client program, and its end: it rejects with the program's own error output when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, stdio: StdioOptions): { child: ChildProcess; done: Promise<void> } {
  const child = spawn(command, args, { env, stdio });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => void (stderr = (stderr + chunk).slice(-4000)));
  const done = new Promise<void>((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new BackupError(`${command} is not installed: on Debian, apt-get install postgresql-client (of the server's major version or newer)`)
          : error,
      ),
    );
    child.once("close", (code, signal) =>
      code === 0 ? resolve() : reject(new BackupError(`${command} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || "no message"}`)),
    );
  });
  // Awaited by the caller later; until then a failure must not count as unhandled.
  done.catch(() => {});
  return { child, done };
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

function connect(target: PostgresTarget) {
  // A few statements each run once: nothing to gain from names, and safe behind any pooler.
  return createDatabase({ engine: "postgres", url: target.url, schema: target.schema, poolSize: 1, applicationName: "ipos-backup", preparedStatements: false });
}

/**
 * The schema the site's tables live in: the one configured, else the first on the connection's
 * search_path that exists, else (a new database) the first one it names.
 */
async function siteSchema(db: Db, target: PostgresTarget): Promise<string> {
  if (target.schema) return target.schema;
  const { rows } = await sql<{ current: string | null; path: string }>`select current_schema() as current, current_setting('search_path') as path`.execute(db);
  const named = rows[0]!.path
    .split(",")
    .map((entry) => entry.trim().replace(/^"(.*)"$/, "$1"))
    .find((entry) => entry && entry !== "$user");
  return rows[0]!.current ?? named ?? "public";
}

async function countRows(db: Db, schema: string): Promise<TableCounts> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = ${schema} and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const counts: TableCounts = {};
  for (const { name } of rows) {
    counts[name] = Number((await sql<{ n: number }>`select count(*) as n from ${sql.id(schema, name)}`.execute(db)).rows[0]!.n);
  }
  return counts;
}

async function latestMigration(db: Db, schema: string, tables: TableCounts): Promise<string | null> {
  if (!("kysely_migration" in tables)) return null;
  const { rows } = await sql<{ name: string }>`select name from ${sql.id(schema, "kysely_migration")} order by name desc limit 1`.execute(db);
  return rows[0]?.name ?? null;
}

/**
 * Dumps the site's schema with pg_dump (custom format) into `payloadPath`. pg_dump reads the snapshot
 * this transaction exported, and the rows are counted in it too: the header's counts are the dump's,
 * whatever the site writes meanwhile.
 */
export async function dumpDatabase(target: PostgresTarget, payloadPath: string): Promise<Pick<BackupManifest, "tables" | "migration" | "schema">> {
  const db = connect(target);
  try {
    return await db
      .transaction()
      .setIsolationLevel("repeatable read")
      .setAccessMode("read only")
      .execute(async (trx) => {
        const { snapshot } = (await sql<{ snapshot: string }>`select pg_export_snapshot() as snapshot`.execute(trx)).rows[0]!;
        const schema = await siteSchema(trx, target);
        const { dbname, env } = libpq(target.url);
        const dump = run(
          "pg_dump",
          [
            "--format=custom",
            "--no-owner",
            "--no-privileges",
            `--schema=${ident(schema)}`,
            `--snapshot=${snapshot}`,
            `--file=${payloadPath}`,
            `--dbname=${dbname}`,
          ],
          env,
          ["ignore", "ignore", "pipe"],
        );
        try {
          const tables = await countRows(trx, schema);
          const migration = await latestMigration(trx, schema, tables);
          // The snapshot must outlive pg_dump's start: the transaction ends only after it.
          await dump.done;
          return { schema, tables, migration };
        } catch (error) {
          dump.child.kill();
          await dump.done.catch(() => {});
          throw error;
        }
      });
  } finally {
    await db.destroy();
  }
}

/** Rows per table in the site's schema of the target database; none when it has no tables. */
export async function tableCounts(target: PostgresTarget): Promise<TableCounts> {
  const db = connect(target);
  try {
    return await countRows(db, await siteSchema(db, target));
  } finally {
    await db.destroy();
  }
}

/**
 * Replaces the site's schema with the backup's in one transaction: pg_restore's script (with
 * --clean) runs through psql --single-transaction after a drop of the whole schema, so tables the
 * backup does not know go too, and before a check that every table holds the rows the header
 * counted. Any failure (pg_restore's, psql's, a count's) rolls everything back: the database is as
 * it was.
 */
export async function replaceDatabase(target: PostgresTarget, backup: CheckedBackup): Promise<void> {
  const db = connect(target);
  let schema: string;
  try {
    schema = await siteSchema(db, target);
  } finally {
    await db.destroy();
  }
  if (schema !== backup.manifest.schema) {
    throw new BackupError(
      `${backup.file} holds the schema "${backup.manifest.schema}" and this site uses "${schema}": pg_restore puts a schema back under its own name only`,
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-restore-"));
  try {
    const payload = path.join(dir, "payload.dump");
    await copyPayload(backup, payload);
    const { dbname, env } = libpq(target.url);
    const psql = run("psql", ["--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", "--single-transaction", `--dbname=${dbname}`, "--file=-"], env, [
      "pipe",
      "ignore",
      "pipe",
    ]);
    const restore = run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--file=-", payload], env, ["ignore", "pipe", "pipe"]);
    // psql stops reading at its first error; its exit status says why, and pg_restore need not go on.
    psql.child.stdin!.on("error", () => {});
    void psql.done.finally(() => restore.child.kill());
    psql.child.stdin!.write(`set client_min_messages = warning;\ndrop schema if exists ${ident(schema)} cascade;\n`);
    restore.child.stdout!.pipe(psql.child.stdin!, { end: false });
    const restored = await restore.done.then(
      () => undefined,
      (error: unknown) => error,
    );
    // At the end of its input psql commits: after a failed pg_restore, an error first makes it roll back.
    psql.child.stdin!.end(restored === undefined ? countCheck(schema, backup.manifest.tables) : "do $$ begin raise exception 'pg_restore failed'; end $$;\n");
    await psql.done;
    if (restored !== undefined) throw restored;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** SQL that fails (so the restore rolls back) unless the schema holds exactly the header's tables and rows. */
function countCheck(schema: string, tables: TableCounts): string {
  const checks = Object.entries(tables).map(
    ([name, rows]) =>
      `  select count(*) into n from ${ident(schema)}.${ident(name)};\n` +
      `  if n <> ${rows} then raise exception 'table %: % rows restored, ${rows} in the backup', ${literal(name)}, n; end if;\n`,
  );
  const count = Object.keys(tables).length;
  return [
    "do $check$ declare n bigint; begin",
    ...checks,
    `  select count(*) into n from information_schema.tables where table_schema = ${literal(schema)} and table_type = 'BASE TABLE';`,
    `  if n <> ${count} then raise exception '% tables restored, ${count} in the backup', n; end if;`,
    "end $check$;\n",
  ].join("\n");
}

/**
 * Runs `work` unless another instance is backing up the same database now (instances of one site
 * share its PostgreSQL database): a transaction's advisory lock, released when it ends.
 */
export async function holdingBackupLock<T>(db: Db, work: () => Promise<T>): Promise<T | undefined> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtextextended('ipos:backup', 0)) as locked`.execute(trx);
    return rows[0]?.locked ? work() : undefined;
  });
}
