import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  await db.schema.alterTable("question").addColumn("submission_key", "text").execute();
  await db.schema.alterTable("answer").addColumn("submission_key", "text").execute();
  await db.schema.createIndex("question_submission_idx").on("question").columns(["author_id", "submission_key"]).unique().execute();
  await db.schema.createIndex("answer_submission_idx").on("answer").columns(["author_id", "submission_key"]).unique().execute();
  await db.schema.createIndex("question_author_created_idx").on("question").columns(["author_id", "created_at"]).execute();

  await db.schema
    .createTable("helpful_vote")
    .addColumn("answer_id", "integer", (c) => c.notNull().references("answer.id").onDelete("cascade"))
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("helpful_vote_pk", ["answer_id", "member_id"])
    .execute();

  // One row per question, viewer and UTC day: a view counts once per viewer per day. Anonymous
  // viewers are a keyed hash of their address that changes daily, never the address itself.
  await db.schema
    .createTable("question_view")
    .addColumn("question_id", "integer", (c) => c.notNull().references("question.id").onDelete("cascade"))
    .addColumn("viewer_key", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("question_view_pk", ["question_id", "viewer_key", "day"])
    .execute();

  // Daily XP caps sum a member's awards of some kinds since midnight.
  await db.schema.createIndex("xp_event_member_kind_idx").on("xp_event").columns(["member_id", "kind", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("xp_event_member_kind_idx").ifExists().execute();
  await db.schema.dropTable("question_view").ifExists().execute();
  await db.schema.dropTable("helpful_vote").ifExists().execute();
  await db.schema.dropIndex("question_author_created_idx").ifExists().execute();
  await db.schema.dropIndex("answer_submission_idx").ifExists().execute();
  await db.schema.dropIndex("question_submission_idx").ifExists().execute();
  await db.schema.alterTable("answer").dropColumn("submission_key").execute();
  await db.schema.alterTable("question").dropColumn("submission_key").execute();
}
