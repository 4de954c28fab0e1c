import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Challenges, members' attempts at them, and their daily check-ins (PRODUCT.md §3, ADR 0022).
 *
 * - A challenge is published (advisors and admins create them so) or proposed (sage and above)
 *   until an advisor publishes or declines it.
 * - An attempt is one try: active, completed or failed. At most one attempt per member and
 *   challenge is active or completed at a time (a partial unique index): two joins at once make one
 *   attempt, and a completed challenge is not taken twice. Failed attempts stay as history.
 * - A check-in is one calendar day (YYYY-MM-DD in the member's time zone) of one attempt.
 * - `member.seen_rank` is the rank the member was last shown, so a rank-up toasts once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const serial = (t: any) =>
    pg
      ? t.addColumn("id", "integer", (c: any) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());

  await serial(db.schema.createTable("challenge"))
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("description", "text", (c: any) => c.notNull())
    .addColumn("path", "text", (c: any) => c.notNull().check(sql`path in ('monk', 'warrior')`))
    .addColumn("length_days", "integer", (c: any) => c.notNull().check(sql`length_days between 1 and 365`))
    .addColumn("check_ins_required", "integer", (c: any) =>
      c.notNull().check(sql`check_ins_required >= 1 and check_ins_required <= length_days`),
    )
    .addColumn("status", "text", (c: any) => c.notNull().check(sql`status in ('published', 'proposed', 'declined')`))
    .addColumn("created_by", "text", (c: any) => c.references("member.id").onDelete("set null"))
    .addColumn("reviewed_by", "text", (c: any) => c.references("member.id").onDelete("set null"))
    .addColumn("created_at", ts, (c: any) => c.notNull().defaultTo(now))
    .addColumn("published_at", ts)
    .addColumn("submission_key", "text")
    .execute();
  await db.schema.createIndex("challenge_status_idx").on("challenge").columns(["status", "published_at"]).execute();
  await db.schema.createIndex("challenge_submission_idx").on("challenge").columns(["created_by", "submission_key"]).unique().execute();

  await db.schema
    .createTable("challenge_virtue")
    .addColumn("challenge_id", "integer", (c) => c.notNull().references("challenge.id").onDelete("cascade"))
    .addColumn("virtue", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("challenge_virtue_pk", ["challenge_id", "virtue"])
    .execute();

  await serial(db.schema.createTable("challenge_attempt"))
    .addColumn("challenge_id", "integer", (c: any) => c.notNull().references("challenge.id").onDelete("cascade"))
    .addColumn("member_id", "text", (c: any) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("status", "text", (c: any) => c.notNull().check(sql`status in ('active', 'completed', 'failed')`))
    /** First and last calendar day of the attempt in the member's zone (YYYY-MM-DD), both included. */
    .addColumn("starts_on", "text", (c: any) => c.notNull())
    .addColumn("ends_on", "text", (c: any) => c.notNull())
    .addColumn("check_in_count", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("created_at", ts, (c: any) => c.notNull().defaultTo(now))
    .addColumn("completed_at", ts)
    .execute();
  await db.schema
    .createIndex("challenge_attempt_open_idx")
    .on("challenge_attempt")
    .columns(["challenge_id", "member_id"])
    .unique()
    .where(sql<boolean>`status in ('active', 'completed')`)
    .execute();
  await db.schema.createIndex("challenge_attempt_member_idx").on("challenge_attempt").columns(["member_id", "status"]).execute();

  await db.schema
    .createTable("challenge_check_in")
    .addColumn("attempt_id", "integer", (c) => c.notNull().references("challenge_attempt.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("challenge_check_in_pk", ["attempt_id", "day"])
    .execute();

  await db.schema.alterTable("member").addColumn("seen_rank", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("member").dropColumn("seen_rank").execute();
  await db.schema.dropTable("challenge_check_in").ifExists().execute();
  await db.schema.dropTable("challenge_attempt").ifExists().execute();
  await db.schema.dropTable("challenge_virtue").ifExists().execute();
  await db.schema.dropTable("challenge").ifExists().execute();
}
