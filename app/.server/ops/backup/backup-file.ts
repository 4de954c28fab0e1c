import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { z } from "zod";

/**
 * The one backup file (ADR 0073): a magic line, one JSON line (the manifest), then the payload, the
 * engine's own copy of the database (a SQLite file, or pg_dump's custom format). Media live in the
 * database (ADR 0020), so the payload holds them too.
 */
export const BACKUP_MAGIC = "IPOS-BACKUP 1";

/** The header's size is bounded, so a file that is not a backup is refused without reading it whole. */
const MAX_HEADER_BYTES = 1024 * 1024;

/** Where a backup is taken from or restored to: the site's database, as DATABASE_URL names it. */
export type BackupTarget = SqliteTarget | PostgresTarget;
export interface SqliteTarget {
  engine: "sqlite";
  sqlitePath: string;
}
export interface PostgresTarget {
  engine: "postgres";
  url: string;
  /** The schema the site uses; unset, the connection's own (its search_path: `public` by default). */
  schema?: string;
}

/** Rows per table, as counted in the moment the payload holds. */
export type TableCounts = Record<string, number>;

const backupManifestSchema = z.object({
  engine: z.enum(["sqlite", "postgres"]),
  createdAt: z.iso.datetime(),
  /** The latest migration the database had; a restore refuses one this code does not know. */
  migration: z.string().nullable(),
  /** PostgreSQL: the schema that was dumped (pg_restore puts it back under the same name). */
  schema: z.string().min(1).optional(),
  tables: z.record(z.string(), z.number().int().min(0)),
  payload: z.object({ bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
});

export type BackupManifest = z.infer<typeof backupManifestSchema>;

/** A backup that cannot be made or used; its message is the line to show the operator. */
export class BackupError extends Error {
  override name = "BackupError";
}

/** A file whose header and payload were checked: the payload starts at `offset`. */
export interface CheckedBackup {
  file: string;
  manifest: BackupManifest;
  offset: number;
}

async function sha256OfFile(file: string, start = 0): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file, { start }), hash);
  return hash.digest("hex");
}

/**
 * Writes header and payload to `file` through a temporary name in the same folder, renamed only once
 * complete and on disk: a crash leaves a `.partial` file, never one that looks whole.
 */
export async function writeBackupFile(file: string, manifest: Omit<BackupManifest, "payload">, payloadPath: string): Promise<BackupManifest> {
  const complete: BackupManifest = {
    ...manifest,
    payload: { bytes: fs.statSync(payloadPath).size, sha256: await sha256OfFile(payloadPath) },
  };
  const partial = `${file}.partial`;
  try {
    const out = fs.createWriteStream(partial, { flags: "wx" });
    out.write(`${BACKUP_MAGIC}\n${JSON.stringify(complete)}\n`);
    await pipeline(fs.createReadStream(payloadPath), out);
    syncFile(partial);
    fs.renameSync(partial, file);
    syncFile(path.dirname(file));
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return complete;
}

/** Flushes a file (or a folder, after a rename in it) to the disk. */
export function syncFile(file: string) {
  const fd = fs.openSync(file, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Checks a backup file before anything is touched: the magic line, the manifest, the payload's
 * length and its SHA-256. A truncated, damaged or foreign file is refused with a BackupError.
 */
export async function checkBackup(file: string): Promise<CheckedBackup> {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    throw new BackupError(`${file}: no such file`);
  }
  const head = Buffer.alloc(Math.min(size, MAX_HEADER_BYTES));
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  const firstEnd = head.indexOf("\n");
  const magic = head.subarray(0, firstEnd < 0 ? Math.min(head.length, 64) : firstEnd).toString("latin1");
  if (!magic.startsWith("IPOS-BACKUP ")) throw new BackupError(`${file} is not a backup of this site (it does not start with "${BACKUP_MAGIC}")`);
  if (magic !== BACKUP_MAGIC) throw new BackupError(`${file} is in backup format "${magic}"; this version reads "${BACKUP_MAGIC}" only`);
  const secondEnd = head.indexOf("\n", firstEnd + 1);
  if (secondEnd < 0) throw new BackupError(`${file} is truncated: its header is incomplete`);
  let manifest: BackupManifest;
  try {
    manifest = backupManifestSchema.parse(JSON.parse(head.subarray(firstEnd + 1, secondEnd).toString("utf8")));
  } catch {
    throw new BackupError(`${file} is damaged: its header cannot be read`);
  }
  const offset = secondEnd + 1;
  const expected = offset + manifest.payload.bytes;
  if (size < expected) throw new BackupError(`${file} is truncated: ${size} bytes, ${expected} expected (${expected - size} missing)`);
  if (size > expected) throw new BackupError(`${file} is damaged: ${size} bytes, ${expected} expected (${size - expected} too many)`);
  if ((await sha256OfFile(file, offset)) !== manifest.payload.sha256) {
    throw new BackupError(`${file} is damaged: its contents do not match the checksum in its header`);
  }
  return { file, manifest, offset };
}

/** Copies a checked backup's payload into a file of its own (flushed to disk), for the engine to read. */
export async function copyPayload(backup: CheckedBackup, to: string): Promise<void> {
  await pipeline(fs.createReadStream(backup.file, { start: backup.offset }), fs.createWriteStream(to, { flags: "wx" }));
  syncFile(to);
}
