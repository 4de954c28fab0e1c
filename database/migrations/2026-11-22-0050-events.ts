import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Events and RSVPs (PRODUCT.md §4, ADR 0024). Times are stored in UTC; `time_zone` is the IANA zone
 * the host wrote them in, shown beside the viewer's own and written into the .ics file.
 * An RSVP is one row per event and member: going, waitlisted (with its place in the queue) or not
 * going. Capacity is enforced by the service under a lock on the event, not by a constraint.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? "timestamptz" : "text";
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const table = db.schema.createTable("event");
  await (pg
    ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("starts_at", ts, (c) => c.notNull())
    .addColumn("ends_at", ts, (c) => c.notNull())
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("online_url", "text")
    .addColumn("place", "text")
    .addColumn("capacity", "integer", (c) => c.notNull())
    .addColumn("host_id", "text", (c) => c.notNull().references("member.id"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("cancelled_at", ts)
    .addColumn("submission_key", "text")
    .execute();
  await db.schema.createIndex("event_starts_idx").on("event").columns(["starts_at"]).execute();
  await db.schema.createIndex("event_submission_idx").on("event").columns(["host_id", "submission_key"]).unique().execute();

  await db.schema
    .createTable("event_rsvp")
    .addColumn("event_id", "integer", (c) => c.notNull().references("event.id").onDelete("cascade"))
    .addColumn("member_id", "text", (c) => c.notNull().references("member.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    /** Place in the event's waitlist (1 is next); null unless waitlisted. */
    .addColumn("waitlist_position", "integer")
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("event_rsvp_pk", ["event_id", "member_id"])
    .execute();
  await db.schema.createIndex("event_rsvp_status_idx").on("event_rsvp").columns(["event_id", "status", "waitlist_position"]).execute();
  await db.schema.createIndex("event_rsvp_member_idx").on("event_rsvp").columns(["member_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("event_rsvp").ifExists().execute();
  await db.schema.dropTable("event").ifExists().execute();
}
