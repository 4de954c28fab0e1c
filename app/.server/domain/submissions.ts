import type { Kysely } from "kysely";
import type { Db } from "../db/connect";

/** The tables whose rows members post with a form's one-time submission key (ADR 0009). */
export type PostTable = "discussion" | "reply" | "question" | "answer";

// The four tables share author_id, submission_key and an integer id; Kysely cannot type a query
// over a union of tables, so these two functions step outside its types in one place.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one place outside the typed schema, as said above
const any = (db: Db) => db as unknown as Kysely<any>;

/** The post this author already made with this key, if any (a double submit). */
export async function findSubmitted(db: Db, table: PostTable, authorId: string, key: string): Promise<{ id: number } | undefined> {
  return any(db)
    .selectFrom(table)
    .select("id")
    .where("author_id", "=", authorId)
    .where("submission_key", "=", key)
    .executeTakeFirst();
}

/**
 * Inserts the post unless the same author and key made one already (two submits at the same
 * moment: the unique index lets one in). `created` says whether this call made it.
 */
export async function insertSubmitted(
  trx: Db,
  table: PostTable,
  values: Record<string, unknown> & { author_id: string; submission_key: string },
): Promise<{ id: number; created: boolean }> {
  const inserted = await any(trx)
    .insertInto(table)
    .values(values)
    .onConflict((oc) => oc.columns(["author_id", "submission_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { id: Number(inserted.id), created: true };
  const first = await findSubmitted(trx, table, values.author_id, values.submission_key);
  if (!first) throw new Error(`${table}: conflicting submission vanished`);
  return { id: first.id, created: false };
}
