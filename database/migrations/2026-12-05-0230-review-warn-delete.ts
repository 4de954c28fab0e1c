import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 31: agreeing with flags on /review may also warn the author or delete the post, and each is
 * in the moderators' log as its own action. The log's check constraint takes the two new actions.
 */
const KINDS = ["discussion", "reply", "question", "answer", "creation", "comment"];
const OLD_ACTIONS = ["hide", "restore", "lock", "unlock", "feature", "unfeature", "auto-hide", "agree", "disagree", "ignore"];
const ACTIONS = [...OLD_ACTIONS, "warn", "delete"];

const inList = (values: string[]) => sql.join(values.map((value) => sql.lit(value)));

async function allowActions(db: Kysely<any>, actions: string[]) {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
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
  await allowActions(db, ACTIONS);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("moderation_action").where("action", "not in", OLD_ACTIONS).execute();
  await allowActions(db, OLD_ACTIONS);
}
