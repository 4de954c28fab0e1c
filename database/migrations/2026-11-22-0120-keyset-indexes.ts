import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Indexes that match the keyset pages exactly (issue 13, ADR 0028): the filter column first, then
 * the ORDER BY columns with the id that breaks ties, so a page is one index range read forwards or
 * backwards and a row comparison `(created_at, id) < (?, ?)` starts it in the right place.
 * A Forge category page filters on `type`; its old index (type, created_at) lacked the id, so on
 * PostgreSQL the cursor could not be an index bound and each page sorted what it read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("creation_type_created_idx").on("creation").columns(["type", "created_at", "id"]).execute();
  await db.schema.dropIndex("creation_type_idx").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("creation_type_idx").on("creation").columns(["type", "created_at"]).execute();
  await db.schema.dropIndex("creation_type_created_idx").execute();
}
