import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 32: a member's own picture. `avatar` is the 32-hex base name of its three stored sizes
 * (`<base>-avatar48.webp`, `-avatar96`, `-avatar256`, in `media`); null shows the initials, as
 * before. Better Auth's `image` column stays unused: it would take any URL, and no request may
 * leave the site for a picture.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("member").addColumn("avatar", "text").execute();
  // `/media` asks, for each picture it serves, whose current picture it is.
  await db.schema.createIndex("member_avatar_idx").on("member").column("avatar").unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("member_avatar_idx").execute();
  await db.schema.alterTable("member").dropColumn("avatar").execute();
}
