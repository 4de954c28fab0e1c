import { sql, type Kysely } from "kysely";
import { engineOf } from "../../db/connect";
import type { Executor } from "../../db/executor";
import type { ModerationLogAction } from "../../db/schema";
import { POST_KINDS, specOf, type MediaColumn, type PostKind } from "./post-kinds";

// Every post table shares id, author_id, created_at, edited_at, deleted_at and hidden_at; Kysely
// cannot type a query over a union of tables, so this repository steps outside its types here, in
// one place, with the table names coming only from POST_KINDS.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one place outside the typed schema, as said above
const any = (db: Executor) => db as unknown as Kysely<any>;

/** What the pipeline reads of a post: whose it is, whether it shows, and its parent. */
export interface PostRow {
  id: number;
  author_id: string;
  deleted_at: unknown;
  hidden_at: unknown;
  created_at: string | Date;
  parent_id: string | number | null;
}

/**
 * `lock`: inside a transaction, the row stays locked until it ends (PostgreSQL's `for update`;
 * SQLite's writers are serial already), so what is read is what the transaction changes.
 */
export async function findPost(db: Executor, kind: PostKind, id: number, { lock = false } = {}): Promise<PostRow | undefined> {
  const { table, parent } = POST_KINDS[kind];
  let query = any(db)
    .selectFrom(table)
    .select(["id", "author_id", "deleted_at", "hidden_at", "created_at", ...(parent ? [`${parent} as parent_id`] : [])])
    .where("id", "=", id);
  if (lock && engineOf(db) === "postgres") query = query.forUpdate();
  const row = (await query.executeTakeFirst()) as (Omit<PostRow, "parent_id"> & { parent_id?: string | number }) | undefined;
  return row ? { ...row, id: Number(row.id), parent_id: row.parent_id ?? null } : undefined;
}

/** A post's Markdown body as its author wrote it (an edit's mentions are compared with it). */
export async function findPostBody(db: Executor, kind: PostKind, id: number): Promise<string | undefined> {
  const row = (await any(db).selectFrom(POST_KINDS[kind].table).select("body").where("id", "=", id).executeTakeFirst()) as { body: string } | undefined;
  return row?.body;
}

/** A post's text as it stands, for its edit history: its title (the kinds with one), Markdown, and when it was written. */
export async function currentVersion(db: Executor, kind: PostKind, id: number) {
  const { table, titled } = POST_KINDS[kind];
  const row = (await any(db)
    .selectFrom(table)
    .select(["body", "created_at", "edited_at", ...(titled ? ["title"] : [])])
    .where("id", "=", id)
    .executeTakeFirst()) as { body: string; title?: string; created_at: string | Date; edited_at: string | Date | null } | undefined;
  return row ? { title: row.title ?? null, body: row.body, createdAt: row.created_at, editedAt: row.edited_at } : undefined;
}

/**
 * A member's latest posts of every kind that has a body, newest first (a new member's few: the spam
 * signals read them). One statement, each kind's latest in a subquery of its own (SQLite takes an
 * ORDER BY and LIMIT in a compound only that way): a reply's transaction read them in six round
 * trips, each a turn of a busy event loop on PostgreSQL (issue 29).
 */
export async function recentBodiesBy(db: Executor, authorId: string, perKind: number) {
  const kinds = Object.keys(POST_KINDS) as PostKind[];
  const latest = (kind: PostKind) =>
    any(db)
      .selectFrom(
        any(db)
          .selectFrom(POST_KINDS[kind].table)
          .select([sql.lit(kind).as("kind"), "id", "body", "body_html", "created_at"])
          .where("author_id", "=", authorId)
          .orderBy("id", "desc")
          .limit(perKind)
          .as(`latest_${kind}`),
      )
      .selectAll();
  const rows = (await kinds
    .slice(1)
    .reduce((query, kind) => query.unionAll(latest(kind)), latest(kinds[0]!))
    .execute()) as Array<{ kind: PostKind; id: number; body: string | null; body_html: string | null; created_at: string | Date }>;
  return (
    rows
      .map((r) => ({ kind: r.kind, id: Number(r.id), body: r.body ?? "", html: r.body_html ?? "", createdAt: new Date(r.created_at).toISOString() }))
      // Ties as they came before (kind by kind, newest id first), whatever order the union gives.
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || kinds.indexOf(a.kind) - kinds.indexOf(b.kind) || b.id - a.id)
  );
}

/** Posts' Markdown bodies by `<kind>:<id>`, one query per kind asked for (the review queue's excerpts). */
export async function postBodies(db: Executor, refs: ReadonlyArray<{ kind: PostKind; id: number }>): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  for (const kind of new Set(refs.map((r) => r.kind))) {
    const ids = refs.filter((r) => r.kind === kind).map((r) => r.id);
    const rows = (await any(db).selectFrom(POST_KINDS[kind].table).select(["id", "body"]).where("id", "in", ids).execute()) as Array<{
      id: number;
      body: string;
    }>;
    for (const row of rows) bodies.set(`${kind}:${Number(row.id)}`, row.body);
  }
  return bodies;
}

/** The post this author already made with this key, if any (a double submit, ADR 0009). */
export async function findSubmitted(db: Executor, kind: PostKind, authorId: string, key: string): Promise<{ id: number } | undefined> {
  const row = await any(db)
    .selectFrom(POST_KINDS[kind].table)
    .select("id")
    .where("author_id", "=", authorId)
    .where("submission_key", "=", key)
    .executeTakeFirst();
  return row ? { id: Number(row.id) } : undefined;
}

/**
 * Inserts the post unless the same author and key made one already (two submits at the same
 * moment: the unique index lets one in). `created` says whether this call made it.
 */
export async function insertSubmitted(
  trx: Executor,
  kind: PostKind,
  values: Record<string, unknown> & { author_id: string; submission_key: string },
): Promise<{ id: number; created: boolean }> {
  const { table } = POST_KINDS[kind];
  const inserted = await any(trx)
    .insertInto(table)
    .values(values)
    .onConflict((oc) => oc.columns(["author_id", "submission_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { id: Number(inserted.id), created: true };
  const first = await findSubmitted(trx, kind, values.author_id, values.submission_key);
  if (!first) throw new Error(`${table}: conflicting submission vanished`);
  return { id: first.id, created: false };
}

/** How many posts of these kinds an author made since an instant; deleted ones count too. */
export async function postedSince(db: Executor, kinds: readonly PostKind[], authorId: string, since: string): Promise<number> {
  if (kinds.length === 0) return 0;
  const [first, ...rest] = kinds.map((kind) =>
    any(db)
      .selectFrom(POST_KINDS[kind].table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("author_id", "=", authorId)
      .where("created_at", ">=", since),
  );
  const rows = await rest.reduce((all, next) => all.unionAll(next), first).execute();
  return rows.reduce((sum, row) => sum + Number(row.n), 0);
}

/**
 * Moves the stored counts a post of this kind under this parent keeps, by delta, in the caller's
 * transaction; never a read-then-write. Each is the parent's own row or a row the parent names (a
 * reply's topic, through its discussion), found by the update itself: one statement per count.
 */
export async function moveCounts(db: Executor, kind: PostKind, parentId: string | number | null, delta: number, activityAt?: string) {
  if (parentId === null) return;
  for (const counted of specOf(kind).countedIn) {
    await any(db)
      .updateTable(counted.table)
      .set((eb) => ({
        [counted.column]: eb(counted.column, "+", delta),
        ...(activityAt && counted.activity ? { last_activity_at: activityAt } : {}),
      }))
      .where("id", "=", counted.via ? any(db).selectFrom(counted.via.table).select(counted.via.column).where("id", "=", parentId) : parentId)
      .execute();
  }
}

/** Writes an author's edit: the changed columns and the "edited" mark. */
export async function updateEdited(db: Executor, kind: PostKind, id: number, values: Record<string, unknown>, at: string) {
  await any(db)
    .updateTable(POST_KINDS[kind].table)
    .set({ ...values, edited_at: at })
    .where("id", "=", id)
    .execute();
}

export async function markDeleted(db: Executor, kind: PostKind, id: number, at: string) {
  await any(db).updateTable(POST_KINDS[kind].table).set({ deleted_at: at }).where("id", "=", id).where("deleted_at", "is", null).execute();
}

export async function setHiddenAt(db: Executor, kind: PostKind, id: number, at: string | null) {
  await any(db).updateTable(POST_KINDS[kind].table).set({ hidden_at: at }).where("id", "=", id).execute();
}

export async function insertModerationAction(
  db: Executor,
  row: { actor_id: string; action: ModerationLogAction; subject_type: PostKind; subject_id: number; created_at: string },
) {
  await db.insertInto("moderation_action").values(row).execute();
}

/** Unlinks a post's stored files and returns their names, so the caller deletes them in the same transaction. */
export async function unlinkMedia(db: Executor, kind: PostKind, id: number, columns: readonly MediaColumn[]): Promise<string[]> {
  const { table } = POST_KINDS[kind];
  const row = (await any(db).selectFrom(table).select(columns).where("id", "=", id).executeTakeFirst()) as Record<string, string | null> | undefined;
  const names = columns.map((c) => row?.[c]).filter((name): name is string => typeof name === "string");
  if (names.length === 0) return [];
  await any(db)
    .updateTable(table)
    .set(Object.fromEntries(columns.map((c) => [c, null])))
    .where("id", "=", id)
    .execute();
  return names;
}
