import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Issue 32: a reply may name the reply it answers ("in reply to Omar"), within its discussion. No
 * foreign key: the answered reply's row always stays (a deletion marks it), and the reply checks
 * it when it is written.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("reply").addColumn("reply_to_id", "integer").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("reply").dropColumn("reply_to_id").execute();
}
