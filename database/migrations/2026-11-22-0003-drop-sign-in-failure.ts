import { PostgresAdapter, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.
// Sign-in attempts are now reserved in rate_limit_hit with every other limit (ADR 0013); the old
// table of failures has no reader left. Its rows are at most 15 minutes of history.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sign_in_failure").ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const table = db.schema.createTable("sign_in_failure");
  await (pg
    ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("failed_at", pg ? "timestamptz" : "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sign_in_failure_key_idx").on("sign_in_failure").columns(["key", "failed_at"]).execute();
}
