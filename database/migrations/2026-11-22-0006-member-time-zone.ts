import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Each member's IANA time zone ("Europe/Berlin"), taken from the browser at join and editable in
 * settings. Daily check-ins count calendar days in it, and events show their times in it. Members
 * who joined before it existed are on UTC until they choose otherwise.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("member").addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC")).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("member").dropColumn("time_zone").execute();
}
