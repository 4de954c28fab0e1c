import fs from "node:fs";
import path from "node:path";
import { createDatabase, type Db } from "../db/connect";
import type { Env } from "../env";
import { atMostEvery, type PeriodicJob } from "../mail/outbox-worker";
import { BackupError, checkBackup, writeBackupFile, type BackupManifest, type BackupTarget, type TableCounts } from "./backup/backup-file";
import * as postgres from "./backup/postgres";
import * as sqlite from "./backup/sqlite";

/** The database DATABASE_URL names, as a backup's source or a restore's target. */
export function databaseTarget(env: Env): BackupTarget {
  return env.DATABASE_ENGINE === "postgres" ? { engine: "postgres", url: env.DATABASE_URL! } : { engine: "sqlite", sqlitePath: env.SQLITE_PATH };
}

/** `site-2026-12-05T03-00-00-000Z.backup`: UTC, sorting by name sorts by time. */
export function backupFileName(at: Date): string {
  return `site-${at.toISOString().replaceAll(":", "-").replace(".", "-")}.backup`;
}

const BACKUP_NAME = /^site-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.backup$/;

/**
 * Writes one backup file of the whole site (database and media, ADR 0073) while the site serves:
 * the engine's consistent copy of one moment, under a header that lets a restore check it first.
 */
export async function writeBackup(target: BackupTarget, file: string, now = new Date()): Promise<{ file: string; bytes: number; manifest: BackupManifest }> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (fs.existsSync(file)) throw new BackupError(`${file} exists already`);
  const payload = `${file}.payload-${process.pid}`;
  fs.rmSync(payload, { force: true });
  try {
    const dumped: Pick<BackupManifest, "tables" | "migration" | "schema"> =
      target.engine === "postgres" ? await postgres.dumpDatabase(target, payload) : await sqlite.dumpDatabase(target, payload);
    const { migration, schema, tables } = dumped;
    const manifest = await writeBackupFile(file, { engine: target.engine, createdAt: now.toISOString(), migration, schema, tables }, payload);
    return { file, bytes: fs.statSync(file).size, manifest };
  } finally {
    fs.rmSync(payload, { force: true });
  }
}

export interface RestoreOptions {
  /** Replace a database that holds data. */
  force?: boolean;
  /** The migrations this code has, by name: a backup from a newer version is refused. */
  knownMigrations: readonly string[];
  /** Brings the restored database to this code's latest migration (server/ and scripts pass database/'s). */
  migrate: (db: Db) => Promise<string[]>;
}

/** Kysely's own bookkeeping holds rows in a database without any content. */
const BOOKKEEPING = new Set(["kysely_migration", "kysely_migration_lock"]);

/**
 * Restores a backup into the target database, for a stopped site. Refuses, before anything is
 * touched: a file that fails its checks (truncated, damaged), a backup of the other engine or from
 * a newer version, and, without `force`, a database that holds any row. Then brings the restored
 * database to the latest migration.
 */
export async function restoreBackup(file: string, target: BackupTarget, options: RestoreOptions): Promise<{ manifest: BackupManifest; migrated: string[] }> {
  const backup = await checkBackup(file);
  const { manifest } = backup;
  if (manifest.engine !== target.engine) {
    throw new BackupError(`${file} is a backup of a ${engineName(manifest.engine)} database; this site uses ${engineName(target.engine)}`);
  }
  if (manifest.migration !== null && !options.knownMigrations.includes(manifest.migration)) {
    throw new BackupError(`${file} was made by a newer version of the site (migration ${manifest.migration}); update the code before restoring it`);
  }
  // With --force nothing is read from the database first: it may be too damaged to read.
  if (!options.force) {
    const counts = target.engine === "postgres" ? await postgres.tableCounts(target) : await sqlite.tableCounts(target);
    const held = Object.entries(counts).filter(([table, rows]) => rows > 0 && !BOOKKEEPING.has(table));
    if (held.length > 0) {
      throw new BackupError(
        `The database holds data already (${describeCounts(Object.fromEntries(held))}); restoring would replace it. Add --force to replace it.`,
      );
    }
  }
  if (target.engine === "postgres") await postgres.replaceDatabase(target, backup);
  else await sqlite.replaceDatabase(target, backup);
  const db = target.engine === "postgres" ? createDatabase({ ...target, poolSize: 1, preparedStatements: false }) : createDatabase(target);
  try {
    return { manifest, migrated: await options.migrate(db) };
  } finally {
    await db.destroy();
  }
}

const engineName = (engine: BackupTarget["engine"]) => (engine === "postgres" ? "PostgreSQL" : "SQLite");

/** "member 12, discussion 30, …": the tables people would look for first, then the others by size. */
export function describeCounts(tables: TableCounts, limit = 6): string {
  const first = ["member", "discussion", "reply", "creation", "question", "answer", "event", "media"];
  const order = (name: string) => (first.includes(name) ? first.indexOf(name) : first.length);
  const shown = Object.entries(tables)
    .filter(([table]) => !BOOKKEEPING.has(table))
    .sort(([a, m], [b, n]) => order(a) - order(b) || n - m)
    .slice(0, limit)
    .map(([table, rows]) => `${table} ${rows}`);
  const more = Object.keys(tables).filter((table) => !BOOKKEEPING.has(table)).length - shown.length;
  return more > 0 ? `${shown.join(", ")} and ${more} more tables` : shown.join(", ");
}

/** The backups in `dir`, newest first. */
export function listBackups(dir: string): Array<{ name: string; at: Date }> {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, match: BACKUP_NAME.exec(name) }))
    .filter((entry): entry is { name: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ name, match: [, day, h, m, s, ms] }) => ({ name, at: new Date(`${day}T${h}:${m}:${s}.${ms}Z`) }))
    .sort((a, b) => b.at.getTime() - a.at.getTime());
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Deletes all but the newest `keep` backups in `dir`, and what a crash left half-written a day ago. */
export function pruneBackups(dir: string, keep: number, now = new Date()): string[] {
  const removed = listBackups(dir)
    .slice(keep)
    .map(({ name }) => name);
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (/\.backup\.(partial|payload-\d+)$/.test(name) && now.getTime() - fs.statSync(path.join(dir, name)).mtimeMs > DAY_MS) removed.push(name);
  }
  for (const name of removed) fs.rmSync(path.join(dir, name), { force: true });
  return removed;
}

/** How often the job looks whether a backup is due; the due time itself is the newest file's. */
const BACKUP_CHECK_MS = 5 * 60 * 1000;

/**
 * The outbox worker's job for BACKUP_EVERY_HOURS (unset or 0: none): a backup into BACKUP_DIR when
 * the newest there is that old, then all but the newest BACKUP_KEEP deleted. The newest file, not
 * this process's clock, says when the last one was made, so restarts neither add backups nor delay
 * them. On PostgreSQL, instances sharing the database take turns through an advisory lock.
 */
export function backupJob(env: Env): PeriodicJob {
  const everyMs = env.BACKUP_EVERY_HOURS * 60 * 60 * 1000;
  if (everyMs <= 0) return async () => 0;
  const target = databaseTarget(env);
  const lock = target.engine === "postgres" ? postgres.holdingBackupLock : sqlite.holdingBackupLock;
  return atMostEvery(BACKUP_CHECK_MS, async (db: Db, now, services) => {
    const due = () => {
      const newest = listBackups(env.BACKUP_DIR)[0];
      return !newest || now.getTime() - newest.at.getTime() >= everyMs;
    };
    if (!due()) return 0;
    return lock(db, async () => {
      // Checked again under the lock: another instance writing into the same folder may just have.
      if (!due()) return 0;
      const started = Date.now();
      const written = await writeBackup(target, path.join(env.BACKUP_DIR, backupFileName(now)), now);
      const removed = pruneBackups(env.BACKUP_DIR, env.BACKUP_KEEP, now);
      services?.logger.info({ file: written.file, bytes: written.bytes, ms: Date.now() - started, tables: written.manifest.tables, removed }, "backup written");
      return 1;
    });
  });
}
