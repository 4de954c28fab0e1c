import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 32: pictures in posts. Each image a member uploads into a Markdown box is stored as three
 * media files (full, display, thumb, ADR 0020) and one row here naming them, with the display size
 * the Markdown is given. `attached_at` is set by the first post saved with the image in its body;
 * an image no post took within a day is deleted with its files (ADR 0071).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  await db.schema
    .createTable("post_image")
    .addColumn("display_name", "text", (c) => c.primaryKey().references("media.name"))
    .addColumn("full_name", "text", (c) => c.notNull().unique().references("media.name"))
    .addColumn("thumb_name", "text", (c) => c.notNull().unique().references("media.name"))
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("owner_id", "text", (c) => c.references("member.id").onDelete("set null"))
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("attached_at", ts)
    .execute();
  // The hourly sweep reads the images no post took, oldest first.
  await sql`create index post_image_unattached on post_image (created_at) where attached_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("post_image").execute();
}
