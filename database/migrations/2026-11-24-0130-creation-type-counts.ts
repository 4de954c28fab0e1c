import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one instead.

/**
 * Visible creations per Forge category (issue 13, ADR 0036): /forge showed each category's number
 * by counting every visible creation on every request, a scan that grows with the Forge. The
 * posting pipeline keeps these rows from now on, in the transaction that makes a creation appear
 * or disappear; filled here. One row per type exists from the start, so a move is always an update.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("creation_type_count")
    .addColumn("type", "text", (c) => c.primaryKey())
    .addColumn("creations", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    insert into creation_type_count (type, creations)
    select t.type, (select count(*) from creation
                    where creation.type = t.type and creation.deleted_at is null and creation.hidden_at is null)
    from (select 'writing' as type union all select 'art' union all select 'music' union all select 'projects') t`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("creation_type_count").execute();
}
