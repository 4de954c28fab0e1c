import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Every mail is first a row here, written in the same transaction as the change that causes it; a
 * worker sends it later with retries (PRODUCT.md §5), so a mail is never lost to an SMTP outage and
 * never sent for a change that rolled back.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const table = db.schema.createTable("mail_outbox");
  await (pg
    ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text", (c) => c.notNull())
    /** JSON object of extra headers (List-Unsubscribe, …). */
    .addColumn("headers", "text", (c) => c.notNull().defaultTo("{}"))
    /** What the mail is about, for tests and logs: "newsletter-confirm", "event-reminder", … */
    .addColumn("kind", "text", (c) => c.notNull())
    /** Optional de-duplication key: a second mail with the same key is not queued (reminders). */
    .addColumn("dedupe_key", "text", (c) => c.unique())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("sent_at", ts)
    .addColumn("failed_at", ts)
    .addColumn("last_error", "text")
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("mail_outbox_due_idx").on("mail_outbox").columns(["sent_at", "failed_at", "next_attempt_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("mail_outbox").execute();
}
