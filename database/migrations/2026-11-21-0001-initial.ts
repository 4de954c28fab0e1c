import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  // Timestamps: ISO-8601 text on SQLite (sorts as time), timestamptz on PostgreSQL.
  const ts = pg ? "timestamptz" : "text";
  const flag = pg ? "boolean" : "integer";
  const serial = (t: any) =>
    pg
      ? t.addColumn("id", "integer", (c: any) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  await db.schema
    .createTable("member")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("email_verified", flag, (c) => c.notNull().defaultTo(pg ? false : 0))
    .addColumn("image", "text")
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("handle", "text", (c) => c.notNull().unique())
    .addColumn("bio", "text")
    .addColumn("interests", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("role", "text", (c) => c.notNull().defaultTo("member"))
    .execute();

  await db.schema
    .createTable("session")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("expires_at", ts, (c) => c.notNull())
    .addColumn("ip_address", "text")
    .addColumn("user_agent", "text")
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("session_member_idx").on("session").column("member_id").execute();

  await db.schema
    .createTable("account")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("access_token", "text")
    .addColumn("refresh_token", "text")
    .addColumn("id_token", "text")
    .addColumn("access_token_expires_at", ts)
    .addColumn("refresh_token_expires_at", ts)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("account_member_idx").on("account").column("member_id").execute();

  await db.schema
    .createTable("verification")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expires_at", ts, (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("verification_identifier_idx").on("verification").column("identifier").execute();

  await serial(db.schema.createTable("sign_in_failure"))
    .addColumn("key", "text", (c: any) => c.notNull())
    .addColumn("failed_at", ts, (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("sign_in_failure_key_idx").on("sign_in_failure").columns(["key", "failed_at"]).execute();

  await db.schema
    .createTable("topic")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("section", "text", (c) => c.notNull().check(sql`section in ('monastery', 'battlefield')`))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("member.id").onDelete("set null"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("discussion_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reply_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("member_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_activity_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("topic_section_idx").on("topic").columns(["section", "created_at"]).execute();

  await db.schema
    .createTable("topic_member")
    .addColumn("topic_id", "text", (c) => c.notNull().references("topic.id").onDelete("cascade"))
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("joined_at", ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("topic_member_pk", ["topic_id", "member_id"])
    .execute();

  await serial(db.schema.createTable("discussion"))
    .addColumn("topic_id", "text", (c: any) => c.notNull().references("topic.id").onDelete("cascade"))
    .addColumn("author_id", "text", (c: any) => c.notNull().references("member.id"))
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("slug", "text", (c: any) => c.notNull())
    .addColumn("body", "text", (c: any) => c.notNull())
    .addColumn("created_at", ts, (c: any) => c.notNull().defaultTo(now))
    .addColumn("edited_at", ts)
    .addColumn("deleted_at", ts)
    .addColumn("hidden_at", ts)
    .addColumn("locked_at", ts)
    .addColumn("featured_at", ts)
    .addColumn("reply_count", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("last_activity_at", ts, (c: any) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex("discussion_topic_activity_idx")
    .on("discussion")
    .columns(["topic_id", "last_activity_at desc", "id desc"])
    .execute();
  await db.schema.createIndex("discussion_featured_idx").on("discussion").column("featured_at").execute();
  await db.schema.createIndex("discussion_author_idx").on("discussion").column("author_id").execute();

  await serial(db.schema.createTable("reply"))
    .addColumn("discussion_id", "integer", (c: any) => c.notNull().references("discussion.id").onDelete("cascade"))
    .addColumn("author_id", "text", (c: any) => c.notNull().references("member.id"))
    .addColumn("body", "text", (c: any) => c.notNull())
    .addColumn("created_at", ts, (c: any) => c.notNull().defaultTo(now))
    .addColumn("edited_at", ts)
    .addColumn("deleted_at", ts)
    .addColumn("hidden_at", ts)
    .execute();
  await db.schema.createIndex("reply_discussion_idx").on("reply").columns(["discussion_id", "id"]).execute();
  await db.schema.createIndex("reply_author_idx").on("reply").column("author_id").execute();

  await serial(db.schema.createTable("creation"))
    .addColumn("author_id", "text", (c: any) => c.notNull().references("member.id"))
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("description", "text", (c: any) => c.notNull())
    .addColumn("type", "text", (c: any) => c.notNull().check(sql`type in ('writing', 'art', 'music', 'projects')`))
    .addColumn("body", "text", (c: any) => c.notNull())
    .addColumn("media_path", "text")
    .addColumn("link_url", "text")
    .addColumn("like_count", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("comment_count", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("created_at", ts, (c: any) => c.notNull().defaultTo(now))
    .addColumn("edited_at", ts)
    .addColumn("deleted_at", ts)
    .addColumn("hidden_at", ts)
    .execute();
  await db.schema.createIndex("creation_type_idx").on("creation").columns(["type", "created_at"]).execute();
  await db.schema.createIndex("creation_created_idx").on("creation").columns(["created_at", "id"]).execute();

  await db.schema
    .createTable("creation_like")
    .addColumn("creation_id", "integer", (c) => c.notNull().references("creation.id").onDelete("cascade"))
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("creation_like_pk", ["creation_id", "member_id"])
    .execute();

  await serial(db.schema.createTable("creation_comment"))
    .addColumn("creation_id", "integer", (c: any) => c.notNull().references("creation.id").onDelete("cascade"))
    .addColumn("author_id", "text", (c: any) => c.notNull().references("member.id"))
    .addColumn("body", "text", (c: any) => c.notNull())
    .addColumn("created_at", ts, (c: any) => c.notNull().defaultTo(now))
    .addColumn("edited_at", ts)
    .addColumn("deleted_at", ts)
    .addColumn("hidden_at", ts)
    .execute();
  await db.schema.createIndex("creation_comment_idx").on("creation_comment").columns(["creation_id", "id"]).execute();

  await serial(db.schema.createTable("question"))
    .addColumn("author_id", "text", (c: any) => c.notNull().references("member.id"))
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("body", "text", (c: any) => c.notNull())
    .addColumn("view_count", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("answer_count", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("accepted_answer_id", "integer")
    .addColumn("created_at", ts, (c: any) => c.notNull().defaultTo(now))
    .addColumn("edited_at", ts)
    .addColumn("deleted_at", ts)
    .addColumn("hidden_at", ts)
    .addColumn("last_activity_at", ts, (c: any) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("question_created_idx").on("question").columns(["created_at", "id"]).execute();

  await db.schema
    .createTable("question_virtue")
    .addColumn("question_id", "integer", (c) => c.notNull().references("question.id").onDelete("cascade"))
    .addColumn("virtue", "text", (c) =>
      c.notNull().check(sql`virtue in ('discipline', 'courage', 'wisdom', 'honor', 'resilience', 'compassion')`),
    )
    .addPrimaryKeyConstraint("question_virtue_pk", ["question_id", "virtue"])
    .execute();
  await db.schema.createIndex("question_virtue_virtue_idx").on("question_virtue").columns(["virtue", "question_id"]).execute();

  await serial(db.schema.createTable("answer"))
    .addColumn("question_id", "integer", (c: any) => c.notNull().references("question.id").onDelete("cascade"))
    .addColumn("author_id", "text", (c: any) => c.notNull().references("member.id"))
    .addColumn("body", "text", (c: any) => c.notNull())
    .addColumn("helpful_count", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("created_at", ts, (c: any) => c.notNull().defaultTo(now))
    .addColumn("edited_at", ts)
    .addColumn("deleted_at", ts)
    .addColumn("hidden_at", ts)
    .execute();
  await db.schema.createIndex("answer_question_idx").on("answer").columns(["question_id", "id"]).execute();
  await db.schema.createIndex("answer_author_idx").on("answer").column("author_id").execute();

  await db.schema
    .createTable("advisor")
    .addColumn("member_id", "text", (c) => c.primaryKey().references("member.id").onDelete("cascade"))
    .addColumn("path", "text", (c) => c.notNull().check(sql`path in ('monk', 'warrior')`))
    .addColumn("specialty", "text", (c) => c.notNull())
    .addColumn("granted_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await serial(db.schema.createTable("xp_event"))
    .addColumn("member_id", "text", (c: any) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("kind", "text", (c: any) => c.notNull())
    .addColumn("subject_id", "text", (c: any) => c.notNull())
    .addColumn("points", "integer", (c: any) => c.notNull())
    .addColumn("created_at", ts, (c: any) => c.notNull().defaultTo(now))
    .addUniqueConstraint("xp_event_once", ["member_id", "kind", "subject_id"])
    .execute();
  await db.schema.createIndex("xp_event_member_idx").on("xp_event").columns(["member_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "xp_event",
    "advisor",
    "answer",
    "question_virtue",
    "question",
    "creation_comment",
    "creation_like",
    "creation",
    "reply",
    "discussion",
    "topic_member",
    "topic",
    "sign_in_failure",
    "verification",
    "account",
    "session",
    "member",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
