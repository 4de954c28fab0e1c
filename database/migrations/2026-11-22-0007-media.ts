import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Uploaded files live in the database (the MediaStore's first implementation), so any number of app
 * instances serve the same files and a backup of the database is a backup of everything. Each row
 * is one stored variant under a generated name (`<random>.<ext>`), never the uploader's file name.
 *
 * A creation points at its variants: for Visual Art the full image (re-encoded, metadata stripped),
 * the display size and the thumbnail; for Music the audio file. `media_path` (never used) goes.
 * Creations and comments take a submission key like the other posts (ADR 0009).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  await db.schema
    .createTable("media")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("byte_size", "integer", (c) => c.notNull())
    /** Hex SHA-256 of the bytes: the strong ETag. */
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("data", pg ? "bytea" : "blob", (c) => c.notNull())
    .addColumn("owner_id", "text", (c) => c.references("member.id").onDelete("set null"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema.alterTable("creation").dropColumn("media_path").execute();
  for (const column of ["image_name", "image_display_name", "image_thumb_name", "audio_name"]) {
    await db.schema
      .alterTable("creation")
      .addColumn(column, "text", (c) => c.references("media.name"))
      .execute();
  }
  await db.schema.alterTable("creation").addColumn("submission_key", "text").execute();
  await db.schema.alterTable("creation_comment").addColumn("submission_key", "text").execute();
  await db.schema.createIndex("creation_submission_idx").on("creation").columns(["author_id", "submission_key"]).unique().execute();
  await db.schema
    .createIndex("creation_comment_submission_idx")
    .on("creation_comment")
    .columns(["author_id", "submission_key"])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("creation_comment_submission_idx").execute();
  await db.schema.dropIndex("creation_submission_idx").execute();
  await db.schema.alterTable("creation_comment").dropColumn("submission_key").execute();
  await db.schema.alterTable("creation").dropColumn("submission_key").execute();
  for (const column of ["audio_name", "image_thumb_name", "image_display_name", "image_name"]) {
    await db.schema.alterTable("creation").dropColumn(column).execute();
  }
  await db.schema.alterTable("creation").addColumn("media_path", "text").execute();
  await db.schema.dropTable("media").execute();
}
