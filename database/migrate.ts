import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { migrations } from "./migrations/index";

/** Brings the database up to the latest migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>, options: { schema?: string } = {}): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // On PostgreSQL the history table must sit in the schema the app uses (tests use one per run).
    ...(options.schema ? { migrationTableSchema: options.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${reason}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * How many of this code's migrations the database has not applied (the readiness check, issue 33):
 * one read of Kysely's own table. (The Migrator's getMigrations introspects every table of the
 * database first, too costly for a probe that comes every few seconds.) A database without the
 * table has applied none.
 */
export async function pendingMigrations(db: Kysely<any>): Promise<number> {
  const rows: { name: string }[] = await db
    .selectFrom("kysely_migration")
    .select("name")
    .execute()
    .catch(() => []);
  const applied = new Set(rows.map((r) => r.name));
  return Object.keys(migrations).filter((name) => !applied.has(name)).length;
}
