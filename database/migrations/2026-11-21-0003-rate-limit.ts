import { PostgresAdapter, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const table = db.schema.createTable("rate_limit_hit");
  await (pg
    ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("hit_at", pg ? "timestamptz" : "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_hit_key_idx").on("rate_limit_hit").columns(["key", "hit_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_limit_hit").ifExists().execute();
}
