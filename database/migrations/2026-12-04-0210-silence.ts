import { PostgresAdapter, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 31: a moderator silences a member for a period, with a reason the member sees: until
 * `silenced_until` they read but do not post, edit, react or flag.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? "timestamptz" : "text";
  await db.schema.alterTable("member").addColumn("silenced_until", ts).execute();
  await db.schema.alterTable("member").addColumn("silence_reason", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("member").dropColumn("silence_reason").execute();
  await db.schema.alterTable("member").dropColumn("silenced_until").execute();
}
