import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Serving a file asks which creation shows it (issue 25, item 6: a hidden creation's files are
 * not public), so each of the four media columns gets an index: the lookup is one index read per
 * column instead of a scan of every creation. Deleting a file checks the same columns (they
 * reference media.name), which PostgreSQL does not index on its own.
 */
const COLUMNS = ["image_name", "image_display_name", "image_thumb_name", "audio_name"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.createIndex(`creation_${column}_idx`).on("creation").column(column).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.dropIndex(`creation_${column}_idx`).execute();
}
