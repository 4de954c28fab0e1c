import { spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Db } from "~/.server/db/connect";
import { insertDemoContent } from "~/.server/db/demo-content";
import { loadEnv } from "~/.server/env";
import { backupJob, listBackups, restoreBackup, writeBackup, type RestoreOptions } from "~/.server/ops/backup";
import { checkBackup, type BackupManifest, type BackupTarget } from "~/.server/ops/backup/backup-file";
import { migrateToLatest } from "../../database/migrate";
import { migrations } from "../../database/migrations/index";
import { createTestSite, ENGINE, PG_URL, type TestSite } from "./test-services";

/**
 * Backups (issue 33 item 1, ADR 0073): one file taken while the site writes, restored into an empty
 * database, holds exactly one moment of it: every table's rows, checksummed here by the test's own
 * reading, equal the source's at that moment. On PostgreSQL the source and the restore target are
 * databases of their own, so that dropping and restoring a schema touches no other test file's.
 */

const root = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-backup-test-"));
const id = randomUUID().replaceAll("-", "").slice(0, 12);
const sourceName = `ipos_bk_${id}`;
const restoredName = `ipos_bk_${id}_restored`;
const databaseUrl = (name: string) => {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

let admin: pg.Client | undefined;
let site: TestSite;
/** The PostgreSQL schema the test site made (one per test site). */
let schema: string;
let source: BackupTarget;
let restored: BackupTarget;

/** Made by the first test, used by the others: the backup, and the moment it holds. */
let file: string;
let manifest: BackupManifest;
let expected: Record<string, TableState>;

const restoreOptions = (extra: Partial<RestoreOptions> = {}): RestoreOptions => ({
  knownMigrations: Object.keys(migrations),
  migrate: (db) => migrateToLatest(db, ENGINE === "postgres" ? { schema } : {}),
  ...extra,
});

const open = (target: BackupTarget) => createDatabase(target.engine === "postgres" ? { ...target, poolSize: 2 } : target);

beforeAll(async () => {
  if (ENGINE === "postgres") {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${sourceName}`);
    await admin.query(`create database ${restoredName}`);
  }
  site = await createTestSite(ENGINE === "postgres" ? { pgUrl: databaseUrl(sourceName) } : {});
  const { db } = site.services;
  if (ENGINE === "postgres") schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema;
  source =
    ENGINE === "postgres" ? { engine: "postgres", url: databaseUrl(sourceName), schema } : { engine: "sqlite", sqlitePath: site.services.env.SQLITE_PATH };
  restored =
    ENGINE === "postgres"
      ? { engine: "postgres", url: databaseUrl(restoredName), schema }
      : { engine: "sqlite", sqlitePath: path.join(dir, "restored", "site.db") };
  await insertDemoContent(db);
  // Media are rows of the database (ADR 0020): a few megabytes of them, so the copy takes a while.
  for (let i = 0; i < 24; i++)
    await db
      .insertInto("media")
      .values(media(`seed-${i}`, 512 * 1024))
      .execute();
}, 60_000);

afterAll(async () => {
  await site?.destroy();
  if (admin) {
    for (const name of [sourceName, restoredName]) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

function media(name: string, bytes: number) {
  const data = randomBytes(bytes);
  return {
    name,
    content_type: "application/octet-stream",
    byte_size: bytes,
    sha256: createHash("sha256").update(data).digest("hex"),
    width: null,
    height: null,
    data,
    owner_id: null,
  };
}

/** A write of the load: a file and a rate-limit hit in one transaction, so a moment holds both or neither. */
async function loadWrite(db: Db, name: string) {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("media").values(media(name, 256)).execute();
    await trx.insertInto("rate_limit_hit").values({ key: name, hit_at: new Date().toISOString() }).execute();
  });
}

interface TableState {
  rows: number;
  sha256: string;
}

/**
 * Every table's rows and a checksum of them, read here and not by the code under test: each row as
 * JSON (bytes as hex, times as ISO), the rows sorted, then SHA-256. SQLite's own tables are left out
 * (sqlite_sequence runs ahead of the rows), the search index's tables are in.
 */
async function tableStates(db: Db): Promise<Record<string, TableState>> {
  const { rows: tables } =
    ENGINE === "postgres"
      ? await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_schema where type = 'table' and name not like 'sqlite%'`.execute(db);
  const states: Record<string, TableState> = {};
  for (const { name } of tables.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    const lines = rows.map((row) =>
      JSON.stringify(
        Object.keys(row)
          .sort()
          .map((column) => {
            const value = row[column];
            return [column, value instanceof Uint8Array ? Buffer.from(value).toString("hex") : value instanceof Date ? value.toISOString() : value];
          }),
      ),
    );
    states[name] = { rows: rows.length, sha256: createHash("sha256").update(lines.sort().join("\n")).digest("hex") };
  }
  return states;
}

async function names(db: Db, table: "media" | "rate_limit_hit", prefix: string): Promise<Set<string>> {
  const column = table === "media" ? "name" : "key";
  const { rows } = await sql<{
    name: string;
  }>`select ${sql.ref(column)} as name from ${sql.table(table)} where ${sql.ref(column)} like ${`${prefix}%`}`.execute(db);
  return new Set(rows.map((r) => r.name));
}

const latestKnown = Object.keys(migrations).sort().at(-1);

describe(`backup and restore on ${ENGINE}`, () => {
  it("backs up one moment while the site writes, and a restore into an empty database holds exactly that moment", async () => {
    const { db } = site.services;
    // The load: four writers, each write acknowledged (committed) at a time recorded here.
    let stop = false;
    let next = 0;
    const started = new Map<string, number>();
    const acked = new Map<string, number>();
    const writers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const name = `load-${String(next++).padStart(6, "0")}`;
        started.set(name, performance.now());
        await loadWrite(db, name);
        acked.set(name, performance.now());
        // node:sqlite answers synchronously: without a turn of the event loop the writers would starve
        // the timers and the backup's own completion.
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    while (acked.size < 20) await new Promise((resolve) => setTimeout(resolve, 5));

    const backupStart = performance.now();
    const written = await writeBackup(source, path.join(dir, "site.backup"));
    const backupEnd = performance.now();
    const ackedBefore = acked.size;
    while (acked.size < ackedBefore + 20) await new Promise((resolve) => setTimeout(resolve, 5));
    stop = true;
    await Promise.all(writers);
    ({ file, manifest } = written);
    // The site went on writing while the backup was made.
    expect([...acked.values()].filter((t) => t > backupStart && t < backupEnd).length).toBeGreaterThan(0);

    // More writes after the backup: new rows, and a change to a row the backup holds.
    for (let i = 0; i < 5; i++) await loadWrite(db, `after-${i}`);
    const changed = await db.selectFrom("member").select(["id", "bio"]).orderBy("id").executeTakeFirstOrThrow();
    await db.updateTable("member").set({ bio: "written after the backup" }).where("id", "=", changed.id).execute();

    await restoreBackup(file, restored, restoreOptions());
    const copy = open(restored);
    try {
      // Which of the load's writes the moment holds: each one whole, every write acknowledged before
      // the backup began, none begun after it ended, nothing written after it.
      const held = await names(copy, "media", "load-");
      expect(await names(copy, "rate_limit_hit", "load-")).toEqual(held);
      for (const [name, at] of acked) if (at < backupStart) expect(held).toContain(name);
      for (const name of held) expect(started.get(name)!).toBeLessThan(backupEnd);
      expect(await names(copy, "media", "after-")).toEqual(new Set());
      expect(held.size).toBeLessThan(acked.size);

      // The source brought back to that moment by undoing what came after it ...
      const notHeld = [...acked.keys()].filter((name) => !held.has(name));
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("media").where("name", "like", "after-%").execute();
        await trx.deleteFrom("rate_limit_hit").where("key", "like", "after-%").execute();
        if (notHeld.length > 0) {
          await trx.deleteFrom("media").where("name", "in", notHeld).execute();
          await trx.deleteFrom("rate_limit_hit").where("key", "in", notHeld).execute();
        }
        await trx.updateTable("member").set({ bio: changed.bio }).where("id", "=", changed.id).execute();
      });
      // ... equals the restored database, table by table, row by row.
      expected = await tableStates(db);
      const restoredStates = await tableStates(copy);
      expect(restoredStates).toEqual(expected);
      expect(Object.keys(expected)).toEqual(expect.arrayContaining(["member", "discussion", "reply", "media", "kysely_migration"]));
      // Every row the header counted is there.
      for (const [table, rows] of Object.entries(manifest.tables)) expect({ table, rows: restoredStates[table]?.rows }).toEqual({ table, rows });
      expect(manifest).toMatchObject({ engine: ENGINE, migration: latestKnown });
      expect(manifest.tables.media).toBe(24 + 4 + held.size);
    } finally {
      await copy.destroy();
    }
  }, 60_000);

  it("refuses a truncated file, a changed byte, a foreign file, the other engine's backup and a newer version's, and changes nothing", async () => {
    const before = await tableStates(site.services.db);
    const bytes = fs.readFileSync(file);
    const variant = (name: string, content: Buffer | string) => {
      const out = path.join(dir, name);
      fs.writeFileSync(out, content);
      return out;
    };
    const headerEnd = bytes.indexOf("\n", bytes.indexOf("\n") + 1) + 1;
    const flipped = Buffer.from(bytes);
    flipped[headerEnd + Math.floor((bytes.length - headerEnd) / 2)]! ^= 0x01;
    const otherEngine = ENGINE === "postgres" ? "sqlite" : "postgres";
    const refusals: Array<[string, RegExp, Partial<RestoreOptions>?]> = [
      [variant("truncated.backup", bytes.subarray(0, bytes.length - 1000)), /is truncated: .* \(1000 missing\)/],
      [variant("header-only.backup", bytes.subarray(0, headerEnd - 10)), /is truncated: its header is incomplete/],
      [variant("flipped.backup", flipped), /is damaged: its contents do not match the checksum/],
      [variant("longer.backup", Buffer.concat([bytes, Buffer.from("x")])), /is damaged: .* \(1 too many\)/],
      [variant("foreign.backup", "PGDMP this is not ours"), /is not a backup of this site/],
      [
        variant(
          "other-engine.backup",
          Buffer.concat([
            Buffer.from(bytes.subarray(0, headerEnd).toString().replace(`"engine":"${ENGINE}"`, `"engine":"${otherEngine}"`)),
            bytes.subarray(headerEnd),
          ]),
        ),
        /is a backup of a .* database; this site uses/,
      ],
      [file, /was made by a newer version of the site/, { knownMigrations: Object.keys(migrations).filter((name) => name !== latestKnown) }],
    ];
    for (const [bad, message, options] of refusals) {
      await expect(restoreBackup(bad, source, restoreOptions({ force: true, ...options }))).rejects.toThrow(message);
    }
    await expect(checkBackup(path.join(dir, "truncated.backup"))).rejects.toThrow(/truncated/);
    expect(await tableStates(site.services.db)).toEqual(before);
  });

  it("replaces a database that holds data only with --force, and the site writes on after it", async () => {
    await loadWrite(site.services.db, "after-force");
    await expect(restoreBackup(file, source, restoreOptions())).rejects.toThrow(/holds data already \(member \d+, .*\).*--force/);
    if (ENGINE === "sqlite") {
      // Restore is for a stopped site: the running one's database is not pulled from under it.
      await expect(restoreBackup(file, source, restoreOptions({ force: true }))).rejects.toThrow(/in use by another process: stop the site/);
    }
    await site.close();
    await restoreBackup(file, source, restoreOptions({ force: true }));
    site = await site.reopen();
    const { db } = site.services;
    expect(await tableStates(db)).toEqual(expected);
    // Generated keys go on after the restored rows (PostgreSQL's identity sequences came back too).
    await loadWrite(db, "after-restore");
    expect(await names(db, "rate_limit_hit", "after-restore")).toEqual(new Set(["after-restore"]));
  }, 30_000);

  it("npm run backup writes a whole file; npm run restore refuses a truncated one and a database with data, exiting non-zero", async () => {
    // The scripts read DATABASE_URL, as an operator's shell gives it (the schema by search_path).
    const databaseUrl =
      restored.engine === "postgres" ? `${restored.url}?options=${encodeURIComponent(`-c search_path=${schema}`)}` : `file:${restored.sqlitePath}`;
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: path.join(dir, "cli"), BACKUP_DIR: path.join(dir, "cli-backups"), LOG_LEVEL: "warn" };
    const backup = await runScript("scripts/backup.ts", [], env);
    expect(backup).toMatchObject({ code: 0, stdout: expect.stringMatching(/Backup written: .*\.backup\n.*\n.*member \d+, discussion \d+/) });
    const [written] = listBackups(env.BACKUP_DIR);
    const checked = await checkBackup(path.join(env.BACKUP_DIR, written!.name));
    expect(checked.manifest.tables).toEqual(manifest.tables);

    const truncated = path.join(dir, "cli-truncated.backup");
    fs.writeFileSync(truncated, fs.readFileSync(checked.file).subarray(0, -1));
    expect(await runScript("scripts/restore.ts", [truncated, "--force"], env)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/Restore refused: .* is truncated/),
    });
    expect(await runScript("scripts/restore.ts", [checked.file], env)).toMatchObject({ code: 1, stderr: expect.stringMatching(/holds data already.*--force/) });
    expect(await runScript("scripts/restore.ts", ["--check", checked.file], env)).toMatchObject({ code: 0, stdout: expect.stringMatching(/is whole/) });
  }, 30_000);

  it("the scheduled backup runs when the newest is BACKUP_EVERY_HOURS old and keeps the newest BACKUP_KEEP", async () => {
    const backups = path.join(dir, "scheduled");
    fs.mkdirSync(backups);
    const hour = 60 * 60 * 1000;
    const now = new Date("2027-01-10T12:00:00.000Z");
    for (const hoursAgo of [30, 20, 2])
      fs.writeFileSync(path.join(backups, `site-${new Date(now.getTime() - hoursAgo * hour).toISOString().replaceAll(":", "-").replace(".", "-")}.backup`), "");
    const env = {
      ...loadEnv({
        DATA_DIR: path.join(dir, "scheduled-data"),
        DATABASE_URL:
          ENGINE === "postgres"
            ? `${databaseUrl(sourceName)}?options=${encodeURIComponent(`-c search_path=${schema}`)}`
            : `file:${site.services.env.SQLITE_PATH}`,
      }),
      BACKUP_DIR: backups,
      BACKUP_EVERY_HOURS: 6,
      BACKUP_KEEP: 2,
    };
    const { db } = site.services;
    expect(await backupJob({ ...env, BACKUP_EVERY_HOURS: 0 })(db, new Date(now.getTime() + 100 * hour))).toBe(0);
    // The newest is 2 hours old: not due.
    expect(await backupJob(env)(db, now)).toBe(0);
    expect(listBackups(backups)).toHaveLength(3);
    if (ENGINE === "postgres") {
      // Another instance backing up now holds the lock: this one leaves it to that one.
      const other = createDatabase({ engine: "postgres", url: databaseUrl(sourceName), poolSize: 1 });
      try {
        await other.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(hashtextextended('ipos:backup', 0))`.execute(trx);
          expect(await backupJob(env)(db, new Date(now.getTime() + 5 * hour))).toBeUndefined();
        });
      } finally {
        await other.destroy();
      }
    }
    const later = new Date(now.getTime() + 5 * hour);
    expect(await backupJob(env)(db, later)).toBe(1);
    const kept = listBackups(backups);
    expect(kept.map((b) => b.at)).toEqual([later, new Date(now.getTime() - 2 * hour)]);
    expect((await checkBackup(path.join(backups, kept[0]!.name))).manifest.tables).toEqual(expect.objectContaining({ member: expected.member!.rows }));
  }, 30_000);

  it("a backup made by an older version is migrated to the latest after its restore", async () => {
    // A site one migration behind this code: a schema (PostgreSQL) or file (SQLite) of its own.
    const older = Object.keys(migrations).sort().at(-2)!;
    const oldSchema = `old_${id}`;
    const from: BackupTarget =
      ENGINE === "postgres"
        ? { engine: "postgres", url: databaseUrl(sourceName), schema: oldSchema }
        : { engine: "sqlite", sqlitePath: path.join(dir, "old", "site.db") };
    const to: BackupTarget =
      ENGINE === "postgres"
        ? { engine: "postgres", url: databaseUrl(restoredName), schema: oldSchema }
        : { engine: "sqlite", sqlitePath: path.join(dir, "old-restored", "site.db") };
    const oldDb = open(from);
    try {
      if (ENGINE === "postgres") await sql`create schema ${sql.id(oldSchema)}`.execute(oldDb);
      const migrator = new Migrator({
        db: oldDb,
        provider: { getMigrations: async () => migrations },
        ...(ENGINE === "postgres" ? { migrationTableSchema: oldSchema } : {}),
      });
      const { error } = await migrator.migrateTo(older);
      if (error) throw error;
    } finally {
      await oldDb.destroy();
    }
    const { file: oldFile, manifest: oldManifest } = await writeBackup(from, path.join(dir, "old.backup"));
    expect(oldManifest.migration).toBe(older);
    const { migrated } = await restoreBackup(oldFile, to, {
      knownMigrations: Object.keys(migrations),
      migrate: (db) => migrateToLatest(db, ENGINE === "postgres" ? { schema: oldSchema } : {}),
    });
    expect(migrated).toEqual([latestKnown]);
  }, 30_000);
});

function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // tsx on this Node (24, which has node:sqlite), whatever node comes first on the PATH.
    const child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), script, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
