import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Replies per discussion and UTC hour (issue 13, ADR 0027): featured discussions ("the most
 * replied in the last 7 days") sum at most a week of these rows, and count reply rows only for
 * the one hour the window starts in (the index on reply.created_at), instead of counting every
 * recent reply on every page of a section. Kept by the posting pipeline from now on; filled here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("reply_hour")
    .addColumn("discussion_id", "integer", (c) => c.notNull().references("discussion.id").onDelete("cascade"))
    .addColumn("section", "text", (c) => c.notNull())
    .addColumn("hour", "text", (c) => c.notNull())
    .addColumn("replies", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("reply_hour_pk", ["discussion_id", "hour"])
    .execute();
  await db.schema.createIndex("reply_hour_hour_idx").on("reply_hour").columns(["hour", "discussion_id"]).execute();
  await db.schema.createIndex("reply_hour_section_idx").on("reply_hour").columns(["section", "hour", "discussion_id"]).execute();
  await db.schema.createIndex("reply_created_idx").on("reply").columns(["created_at"]).execute();
  const hour = pg ? sql`to_char(reply.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24')` : sql`substr(reply.created_at, 1, 13)`;
  await sql`
    insert into reply_hour (discussion_id, section, hour, replies)
    select reply.discussion_id, topic.section, ${hour}, count(*)
    from reply
    join discussion on discussion.id = reply.discussion_id
    join topic on topic.id = discussion.topic_id
    where reply.deleted_at is null and reply.hidden_at is null
    group by reply.discussion_id, topic.section, ${hour}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("reply_created_idx").execute();
  await db.schema.dropTable("reply_hour").execute();
}
