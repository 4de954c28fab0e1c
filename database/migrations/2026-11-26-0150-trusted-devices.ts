import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 25, item 9 (ADR 0042): ten wrong passwords from anywhere no longer lock the owner out.
 * `trusted_device`: a browser that signed in successfully, known by the hash of the random token in
 * its long-lived cookie; its attempts count against its own limit instead of the address's.
 * `sign_in_link`: a mailed one-time link, known by the hash of its token, for the address it was
 * mailed to (a link mailed before an email change or a deletion then matches no member).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  await db.schema
    .createTable("trusted_device")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("last_used_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("trusted_device_member_idx").on("trusted_device").column("member_id").execute();

  await db.schema
    .createTable("sign_in_link")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("expires_at", ts, (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("sign_in_link_member_idx").on("sign_in_link").column("member_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sign_in_link").execute();
  await db.schema.dropTable("trusted_device").execute();
}
