import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  // A form's one-time key: a double submit finds the post the first submit made.
  await db.schema.alterTable("discussion").addColumn("submission_key", "text").execute();
  await db.schema.alterTable("reply").addColumn("submission_key", "text").execute();
  await db.schema.createIndex("discussion_submission_idx").on("discussion").columns(["author_id", "submission_key"]).unique().execute();
  await db.schema.createIndex("reply_submission_idx").on("reply").columns(["author_id", "submission_key"]).unique().execute();
  // Daily limits count a member's recent discussions.
  await db.schema.createIndex("discussion_author_created_idx").on("discussion").columns(["author_id", "created_at"]).execute();

  const table = db.schema.createTable("moderation_action");
  await (pg
    ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("actor_id", "text", (c) => c.notNull().references("member.id"))
    .addColumn("action", "text", (c) =>
      c.notNull().check(sql`action in ('hide', 'restore', 'lock', 'unlock', 'feature', 'unfeature')`),
    )
    .addColumn("subject_type", "text", (c) => c.notNull().check(sql`subject_type in ('discussion', 'reply')`))
    .addColumn("subject_id", "integer", (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex("moderation_action_subject_idx")
    .on("moderation_action")
    .columns(["subject_type", "subject_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("moderation_action").ifExists().execute();
  await db.schema.dropIndex("discussion_author_created_idx").ifExists().execute();
  await db.schema.dropIndex("reply_submission_idx").ifExists().execute();
  await db.schema.dropIndex("discussion_submission_idx").ifExists().execute();
  await db.schema.alterTable("reply").dropColumn("submission_key").execute();
  await db.schema.alterTable("discussion").dropColumn("submission_key").execute();
}
