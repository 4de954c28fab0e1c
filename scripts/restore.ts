// `npm run restore -- FILE [--force]`: puts a backup (ADR 0073) in place of the configured database,
// for a stopped site, then migrates it to this code's latest. The file is checked first; a database
// that holds data is replaced only with --force. `npm run restore -- --check FILE` checks only.
import { loadEnv } from "../app/.server/env";
import { databaseTarget, describeCounts, restoreBackup } from "../app/.server/ops/backup";
import { BackupError, checkBackup } from "../app/.server/ops/backup/backup-file";
import { migrateToLatest } from "../database/migrate";
import { migrations } from "../database/migrations/index";

const usage = "usage: npm run restore -- FILE [--force]\n       npm run restore -- --check FILE";
const args = process.argv.slice(2);
const files = args.filter((arg) => !arg.startsWith("--"));
const unknown = args.filter((arg) => arg.startsWith("--") && arg !== "--force" && arg !== "--check");
if (files.length !== 1 || unknown.length > 0) {
  console.error(usage);
  process.exit(2);
}
const [file] = files as [string];
// `npm run restore FILE --force` (without the `--`) hands --force to npm, which passes it on this way.
const force = args.includes("--force") || process.env.npm_config_force === "true";

try {
  if (args.includes("--check")) {
    const { manifest } = await checkBackup(file);
    console.log(`${file} is whole: a ${manifest.engine} backup made ${manifest.createdAt}, migration ${manifest.migration ?? "none"}`);
    console.log(`  ${describeCounts(manifest.tables)}`);
  } else {
    const env = loadEnv();
    const { manifest, migrated } = await restoreBackup(file, databaseTarget(env), {
      force,
      knownMigrations: Object.keys(migrations),
      migrate: (db) => migrateToLatest(db),
    });
    console.log(`Restored ${file} (made ${manifest.createdAt}) into ${env.DATABASE_ENGINE === "postgres" ? "PostgreSQL" : env.SQLITE_PATH}`);
    console.log(`  ${describeCounts(manifest.tables)}`);
    if (migrated.length > 0) console.log(`  then migrated: ${migrated.join(", ")}`);
  }
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`${args.includes("--check") ? "Check failed" : "Restore refused"}: ${error.message}`);
  process.exitCode = 1;
}
