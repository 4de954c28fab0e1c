import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 31: flags and the review queue. A member flags a post once (`flag`, unique per post and
 * flagger), with a reason, an optional note and the weight their rank and record gave it; a post
 * with flags is one `review_item`, pending until a moderator decides, with the flags' summed weight
 * and whether the flags hid it; a new member's first post caught by spam signals waits there too,
 * for approval. The moderators' log takes the new decisions.
 */
const KINDS = ["discussion", "reply", "question", "answer", "creation", "comment"];
const OLD_ACTIONS = ["hide", "restore", "lock", "unlock", "feature", "unfeature"];
const ACTIONS = [...OLD_ACTIONS, "auto-hide", "agree", "disagree", "ignore"];

const inList = (values: string[]) => sql.join(values.map((value) => sql.lit(value)));

async function allowActions(db: Kysely<any>, actions: string[]) {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // PostgreSQL names a column's check constraint <table>_<column>_check.
    await sql`alter table moderation_action drop constraint moderation_action_action_check`.execute(db);
    await sql`alter table moderation_action add constraint moderation_action_action_check check (action in (${inList(actions)}))`.execute(db);
    return;
  }
  // SQLite cannot change a check constraint: the table is built again, rows and ids kept.
  await db.schema.dropIndex("moderation_action_subject_idx").execute();
  await db.schema.alterTable("moderation_action").renameTo("moderation_action_old").execute();
  await db.schema
    .createTable("moderation_action")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("actor_id", "text", (c) => c.notNull().references("member.id"))
    .addColumn("action", "text", (c) => c.notNull().check(sql`action in (${inList(actions)})`))
    .addColumn("subject_type", "text", (c) => c.notNull().check(sql`subject_type in (${inList(KINDS)})`))
    .addColumn("subject_id", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`))
    .execute();
  await sql`insert into moderation_action (id, actor_id, action, subject_type, subject_id, created_at)
    select id, actor_id, action, subject_type, subject_id, created_at from moderation_action_old
    where action in (${inList(actions)})`.execute(db);
  await db.schema.dropTable("moderation_action_old").execute();
  await db.schema.createIndex("moderation_action_subject_idx").on("moderation_action").columns(["subject_type", "subject_id", "created_at"]).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  let flag = db.schema.createTable("flag");
  flag = pg
    ? flag.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : flag.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  await flag
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in (${inList(KINDS)})`))
    .addColumn("post_id", "integer", (c) => c.notNull())
    .addColumn("flagger_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in ('spam', 'abusive', 'off_topic', 'other')`))
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    // Hundredths: 100 is an initiate's flag with no record yet.
    .addColumn("weight", "integer", (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.check(sql`outcome in ('agreed', 'disagreed', 'ignored')`))
    .addColumn("decided_at", ts)
    .addUniqueConstraint("flag_post_flagger_uq", ["kind", "post_id", "flagger_id"])
    .execute();
  // A flagger's record (agreed and disagreed flags) weighs their next flag.
  await db.schema.createIndex("flag_flagger_idx").on("flag").columns(["flagger_id", "outcome"]).execute();

  await db.schema
    .createTable("review_item")
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in (${inList(KINDS)})`))
    .addColumn("post_id", "integer", (c) => c.notNull())
    .addColumn("author_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'decided')`))
    // Why it waits: members' flags, or a new member's first post caught by spam signals.
    .addColumn("reason", "text", (c) => c.notNull().defaultTo("flags").check(sql`reason in ('flags', 'approval')`))
    .addColumn("weight", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("flags", "integer", (c) => c.notNull().defaultTo(0))
    // When the flags hid it (their weight reached the threshold); null while they have not.
    .addColumn("hidden_by_flags_at", ts)
    .addColumn("opened_at", ts, (c) => c.notNull())
    .addColumn("decided_at", ts)
    .addColumn("decision", "text", (c) => c.check(sql`decision in ('agree', 'disagree', 'ignore')`))
    .addColumn("decided_by", "text", (c) => c.references("member.id"))
    .addPrimaryKeyConstraint("review_item_pk", ["kind", "post_id"])
    .execute();
  // The queue: pending items, oldest first.
  await db.schema.createIndex("review_item_pending_idx").on("review_item").columns(["status", "opened_at"]).execute();

  await allowActions(db, ACTIONS);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("moderation_action").where("action", "not in", OLD_ACTIONS).execute();
  await allowActions(db, OLD_ACTIONS);
  await db.schema.dropTable("review_item").execute();
  await db.schema.dropTable("flag").execute();
}
