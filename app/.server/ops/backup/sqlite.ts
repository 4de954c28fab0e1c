import fs from "node:fs";
import path from "node:path";
import { backup, DatabaseSync } from "node:sqlite";
import type { Db } from "../../db/connect";
import { BackupError, copyPayload, syncFile, type BackupManifest, type CheckedBackup, type SqliteTarget, type TableCounts } from "./backup-file";

/**
 * SQLite's backup API copies this many pages per step. A step holds one read transaction; between
 * steps, a write by another connection (the site's) makes the copy start over, so under steady
 * writes a copy in steps might never end. One step for every page copies one moment's state while
 * the site goes on writing (WAL), and Node runs the step on its thread pool: the event loop serves on.
 */
const ALL_PAGES = 2 ** 31 - 1;

/** The site's tables and their rows: shadow tables of the search index and SQLite's own are not the site's. */
function countRows(db: DatabaseSync): TableCounts {
  const tables = db
    .prepare("select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name")
    .all() as Array<{ name: string }>;
  const counts: TableCounts = {};
  for (const { name } of tables) counts[name] = Number((db.prepare(`select count(*) as n from "${name.replaceAll('"', '""')}"`).get() as { n: number }).n);
  return counts;
}

function latestMigration(db: DatabaseSync): string | null {
  const table = db.prepare("select 1 from sqlite_schema where type = 'table' and name = 'kysely_migration'").get();
  if (!table) return null;
  return (db.prepare("select name from kysely_migration order by name desc limit 1").get() as { name: string } | undefined)?.name ?? null;
}

/** Copies the live database into `payloadPath`, one consistent moment, and counts what the copy holds. */
export async function dumpDatabase(target: SqliteTarget, payloadPath: string): Promise<Pick<BackupManifest, "tables" | "migration">> {
  if (!fs.existsSync(target.sqlitePath)) throw new BackupError(`There is no database at ${target.sqlitePath}`);
  // A connection of its own: the site's stays free for its requests meanwhile.
  const source = new DatabaseSync(target.sqlitePath, { timeout: 5000 });
  try {
    await backup(source, payloadPath, { rate: ALL_PAGES });
  } finally {
    source.close();
  }
  const copy = new DatabaseSync(payloadPath);
  try {
    return { tables: countRows(copy), migration: latestMigration(copy) };
  } finally {
    copy.close();
  }
}

/** Rows per table in the target database; none when there is no database file yet. */
export async function tableCounts(target: SqliteTarget): Promise<TableCounts> {
  if (!fs.existsSync(target.sqlitePath)) return {};
  const db = new DatabaseSync(target.sqlitePath, { timeout: 5000 });
  try {
    return countRows(db);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_SQLITE_ERROR") throw error;
    throw new BackupError(`${target.sqlitePath} cannot be read (${(error as Error).message}); --force replaces it as it is`);
  } finally {
    db.close();
  }
}

/**
 * Puts the backup's database in place of the target's, for a stopped site: the copy is written next
 * to the database, checked (SQLite's quick check, and the header's row counts), then renamed over it.
 * The old database's write-ahead log is folded in and removed first, so that it is never replayed
 * onto the restored file.
 */
export async function replaceDatabase(target: SqliteTarget, backup: CheckedBackup): Promise<void> {
  const file = target.sqlitePath;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const incoming = `${file}.restoring-${process.pid}`;
  fs.rmSync(incoming, { force: true });
  try {
    await copyPayload(backup, incoming);
    const copy = new DatabaseSync(incoming);
    try {
      const check = (copy.prepare("pragma quick_check").get() as { quick_check: string }).quick_check;
      if (check !== "ok") throw new BackupError(`${backup.file}: its database fails SQLite's check (${check})`);
      const counts = countRows(copy);
      if (JSON.stringify(sortedCounts(counts)) !== JSON.stringify(sortedCounts(backup.manifest.tables))) {
        throw new BackupError(`${backup.file} is damaged: its database's rows do not match the counts in its header`);
      }
    } finally {
      copy.close();
    }
    if (fs.existsSync(file)) {
      try {
        const old = new DatabaseSync(file, { timeout: 5000 });
        try {
          old.exec("pragma wal_checkpoint(truncate)");
        } finally {
          old.close();
        }
      } catch (error) {
        // A file SQLite cannot read has no log worth keeping: --force replaces it as it is.
        if ((error as NodeJS.ErrnoException).code !== "ERR_SQLITE_ERROR") throw error;
      }
      // The last connection to close removes the log; one still there means another process has the
      // database open (the site).
      if (fs.existsSync(`${file}-wal`)) throw new BackupError(`${file} is in use by another process: stop the site before restoring`);
    }
    fs.rmSync(`${file}-wal`, { force: true });
    fs.rmSync(`${file}-shm`, { force: true });
    fs.renameSync(incoming, file);
    syncFile(path.dirname(file));
  } finally {
    fs.rmSync(incoming, { force: true });
    fs.rmSync(`${incoming}-wal`, { force: true });
    fs.rmSync(`${incoming}-shm`, { force: true });
  }
}

const sortedCounts = (counts: TableCounts) => Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** One process serves a SQLite site: no other can be backing it up. */
export async function holdingBackupLock<T>(_db: Db, work: () => Promise<T>): Promise<T | undefined> {
  return work();
}
