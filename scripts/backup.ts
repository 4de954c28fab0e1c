// `npm run backup [-- FOLDER | FILE.backup]`: one file holding the whole site, database and media
// (ADR 0073), written while the site serves. By default into BACKUP_DIR (DATA_DIR/backups).
import path from "node:path";
import { loadEnv } from "../app/.server/env";
import { backupFileName, databaseTarget, describeCounts, writeBackup } from "../app/.server/ops/backup";
import { BackupError } from "../app/.server/ops/backup/backup-file";

const env = loadEnv();
const [where, ...extra] = process.argv.slice(2);
if (extra.length > 0 || where?.startsWith("-")) {
  console.error("usage: npm run backup [-- FOLDER | FILE.backup]");
  process.exit(2);
}
const now = new Date();
const file = where?.endsWith(".backup") ? path.resolve(where) : path.join(where ? path.resolve(where) : env.BACKUP_DIR, backupFileName(now));
try {
  const started = Date.now();
  const { bytes, manifest } = await writeBackup(databaseTarget(env), file, now);
  const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
  console.log(`Backup written: ${file}`);
  console.log(
    `  ${(bytes / 1024 / 1024).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s, ${env.DATABASE_ENGINE}, migration ${manifest.migration ?? "none"}`,
  );
  console.log(`  ${Object.keys(manifest.tables).length} tables, ${rows} rows: ${describeCounts(manifest.tables)}`);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`Backup failed: ${error.message}`);
  process.exitCode = 1;
}
