import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.
// The posting pipeline hides and restores every kind of post and logs each action (ADR 0017):
// moderation_action.subject_type accepts questions, answers, creations and comments too.

const KINDS = ["discussion", "reply", "question", "answer", "creation", "comment"];
const OLD_KINDS = ["discussion", "reply"];

const inList = (kinds: string[]) => sql.join(kinds.map((kind) => sql.lit(kind)));

async function allowSubjects(db: Kysely<any>, kinds: string[]) {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // PostgreSQL names a column's check constraint <table>_<column>_check.
    await sql`alter table moderation_action drop constraint moderation_action_subject_type_check`.execute(db);
    await sql`alter table moderation_action add constraint moderation_action_subject_type_check check (subject_type in (${inList(kinds)}))`.execute(db);
    return;
  }
  // SQLite cannot change a check constraint: the table is built again, rows and ids kept.
  await db.schema.dropIndex("moderation_action_subject_idx").execute();
  await db.schema.alterTable("moderation_action").renameTo("moderation_action_old").execute();
  await db.schema
    .createTable("moderation_action")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("actor_id", "text", (c) => c.notNull().references("member.id"))
    .addColumn("action", "text", (c) => c.notNull().check(sql`action in ('hide', 'restore', 'lock', 'unlock', 'feature', 'unfeature')`))
    .addColumn("subject_type", "text", (c) => c.notNull().check(sql`subject_type in (${inList(kinds)})`))
    .addColumn("subject_id", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`))
    .execute();
  await sql`insert into moderation_action (id, actor_id, action, subject_type, subject_id, created_at)
    select id, actor_id, action, subject_type, subject_id, created_at from moderation_action_old
    where subject_type in (${inList(kinds)})`.execute(db);
  await db.schema.dropTable("moderation_action_old").execute();
  await db.schema.createIndex("moderation_action_subject_idx").on("moderation_action").columns(["subject_type", "subject_id", "created_at"]).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await allowSubjects(db, KINDS);
}

export async function down(db: Kysely<any>): Promise<void> {
  // Going back forgets what was logged about the newer kinds.
  await db.deleteFrom("moderation_action").where("subject_type", "not in", OLD_KINDS).execute();
  await allowSubjects(db, OLD_KINDS);
}
