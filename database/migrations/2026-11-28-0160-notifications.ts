import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 28: members are told.
 * - `notification`: one line of a member's list. `subject` names what it opens ("reply:12") and
 *   `parent` the post whose hiding or deletion also takes it away ("discussion:5"); both are
 *   "<kind>:<id>" so every kind of post, event and challenge fits one pair of indexed columns.
 *   `group_key` gathers likes of one creation into one unread line ("Amara and 4 others liked …"):
 *   unique per member among the unread, so an upsert moves the line instead of adding one.
 * - `watch`: a member's level for a discussion, question or topic (watching, normal, muted).
 * - `member_mute`: nothing of the muted member notifies the member.
 * - `notification_setting`: a kind turned off in the site or by mail; no row means on.
 * - `read_marker`: how far a member has read a discussion or question (the "3 new" markers).
 * - `member.digest_sent_at`: when the member was last mailed a digest (at most one an hour).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  let notification = db.schema.createTable("notification");
  notification = pg
    ? notification.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : notification.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  await notification
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    // A deleted member's notifications of others leave with them (issue 28).
    .addColumn("actor_id", "text", (c) => c.references("member.id").onDelete("cascade"))
    .addColumn("others", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("parent", "text")
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("group_key", "text")
    .addColumn("at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("read_at", ts)
    .addColumn("mailed_at", ts)
    .execute();
  // The list, newest first, as keyset pages.
  await db.schema.createIndex("notification_member_at_idx").on("notification").columns(["member_id", "at", "id"]).execute();
  // The bell's count and the digest's search: the unread only.
  await db.schema.createIndex("notification_unread_idx").on("notification").columns(["member_id", "id"]).where(sql.ref("read_at"), "is", null).execute();
  await db.schema
    .createIndex("notification_group_idx")
    .on("notification")
    .columns(["member_id", "group_key"])
    .unique()
    .where(sql.ref("read_at"), "is", null)
    .execute();
  await db.schema.createIndex("notification_subject_idx").on("notification").column("subject").execute();
  await db.schema.createIndex("notification_parent_idx").on("notification").column("parent").execute();
  await db.schema.createIndex("notification_actor_idx").on("notification").column("actor_id").execute();

  await db.schema
    .createTable("watch")
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("watch_pk", ["member_id", "subject"])
    .execute();
  await db.schema.createIndex("watch_subject_idx").on("watch").columns(["subject", "level"]).execute();
  // 'Join Topic' means watching it: the members who joined before now watch what they joined.
  await sql`insert into watch (member_id, subject, level) select member_id, 'topic:' || topic_id, 'watching' from topic_member`.execute(db);

  await db.schema
    .createTable("member_mute")
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("muted_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("member_mute_pk", ["member_id", "muted_id"])
    .execute();

  await db.schema
    .createTable("notification_setting")
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("in_site", pg ? "boolean" : "integer", (c) => c.notNull())
    .addColumn("by_mail", pg ? "boolean" : "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("notification_setting_pk", ["member_id", "kind"])
    .execute();

  await db.schema
    .createTable("read_marker")
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("seen_count", "integer", (c) => c.notNull())
    .addColumn("last_seen_id", "integer", (c) => c.notNull())
    .addColumn("read_at", ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("read_marker_pk", ["member_id", "subject"])
    .execute();

  await db.schema.alterTable("member").addColumn("digest_sent_at", ts).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("member").dropColumn("digest_sent_at").execute();
  await db.schema.dropTable("read_marker").execute();
  await db.schema.dropTable("notification_setting").execute();
  await db.schema.dropTable("member_mute").execute();
  await db.schema.dropTable("watch").execute();
  await db.schema.dropTable("notification").execute();
}
