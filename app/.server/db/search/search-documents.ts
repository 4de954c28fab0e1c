import type { Insertable } from "kysely";
import { toDate } from "~/lib/dates";
import { excerptOf } from "~/lib/text";
import type { Executor } from "../executor";
import type { SearchDocumentTable, SearchKind } from "../schema";

/**
 * The search index's rows (ADR 0063), made from the rows of what they mirror. A writer names what
 * it changed (`indexSearch`) inside its own transaction, and the row is made again from what the
 * transaction now holds, so an edit is found by its new words at once and a hidden or deleted post
 * is gone from everyone's results at the commit. One function makes every kind's row, so a post
 * and the index cannot disagree on what is findable:
 *
 * - a deleted post, a cancelled event and a challenge not (or no longer) published have no row;
 * - a hidden post keeps its row, flagged, for moderators; its replies, answers or comments are
 *   flagged with it (`parent_hidden`).
 */

export interface SearchSubject {
  kind: SearchKind;
  id: number;
}

/** A row as a kind makes it: what it has no use for (a reply's title) is left to its default. */
type Row = Pick<Insertable<SearchDocumentTable>, "kind" | "ref_id" | "body" | "author_id" | "created_at"> &
  Partial<Pick<Insertable<SearchDocumentTable>, "parent_id" | "title" | "section" | "virtues" | "hidden" | "parent_hidden">>;

/** The kinds whose posts have children in the index, and the kind of those children. */
const CHILDREN: Partial<Record<SearchKind, SearchKind>> = { discussion: "reply", question: "answer", creation: "comment" };

/** A body's words as plain text: Markdown's marks gone, and never the highlighter's markers. */
export function searchText(markdown: string): string {
  return excerptOf(markdown.replace(/\p{Cc}/gu, " "), Number.POSITIVE_INFINITY);
}

const flag = (value: unknown) => (value === null || value === undefined ? 0 : 1);

/** What every post's row is made of, read from its own table (a child's parent is joined beside it). */
const postColumns = <T extends "discussion" | "reply" | "question" | "answer" | "creation" | "creation_comment">(table: T) =>
  [`${table}.id`, `${table}.body`, `${table}.author_id`, `${table}.created_at`, `${table}.hidden_at`, `${table}.deleted_at`] as const;

/** A post's row as postColumns reads it; a reply's, answer's or comment's with its parent's id and hidden mark. */
interface PostSource {
  id: number;
  body: string;
  author_id: string;
  created_at: string | Date;
  hidden_at: unknown;
  deleted_at: unknown;
  parent_id?: number;
  parent_hidden_at?: unknown;
}

/**
 * The rows of these posts: none for a deleted one, the hidden flags from the post and its parent,
 * what the kind adds of its own (a title, a section, virtues) and the text its words are found in
 * (the body, or a creation's description and body).
 */
function postDocuments<R extends PostSource>(
  kind: SearchKind,
  rows: readonly R[],
  own: (row: R) => Partial<Row> = () => ({}),
  text: (row: R) => string = (row) => row.body,
): Row[] {
  return rows
    .filter((r) => r.deleted_at === null)
    .map((r) => ({
      kind,
      ref_id: r.id,
      parent_id: r.parent_id,
      body: searchText(text(r)),
      author_id: r.author_id,
      created_at: r.created_at,
      hidden: flag(r.hidden_at),
      parent_hidden: flag(r.parent_hidden_at),
      ...own(r),
    }));
}

/** The index rows of these things as they are now; a thing with none is not findable. */
async function documentsOf(db: Executor, kind: SearchKind, ids: readonly number[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  switch (kind) {
    case "discussion": {
      const rows = await db
        .selectFrom("discussion")
        .innerJoin("topic", "topic.id", "discussion.topic_id")
        .select([...postColumns("discussion"), "discussion.title", "topic.section"])
        .where("discussion.id", "in", ids)
        .execute();
      return postDocuments(kind, rows, (r) => ({ title: r.title, section: r.section }));
    }
    case "reply": {
      const rows = await db
        .selectFrom("reply")
        .innerJoin("discussion", "discussion.id", "reply.discussion_id")
        .innerJoin("topic", "topic.id", "discussion.topic_id")
        .select([...postColumns("reply"), "reply.discussion_id as parent_id", "discussion.hidden_at as parent_hidden_at", "topic.section"])
        .where("reply.id", "in", ids)
        .execute();
      return postDocuments(kind, rows, (r) => ({ section: r.section }));
    }
    case "question": {
      const rows = await db
        .selectFrom("question")
        .select([...postColumns("question"), "question.title"])
        .where("id", "in", ids)
        .execute();
      const virtues = await virtuesOf(db, "question_virtue", "question_id", ids);
      return postDocuments(kind, rows, (r) => ({ title: r.title, virtues: virtues.get(r.id) ?? "" }));
    }
    case "answer": {
      const rows = await db
        .selectFrom("answer")
        .innerJoin("question", "question.id", "answer.question_id")
        .select([...postColumns("answer"), "answer.question_id as parent_id", "question.hidden_at as parent_hidden_at"])
        .where("answer.id", "in", ids)
        .execute();
      return postDocuments(kind, rows);
    }
    case "creation": {
      const rows = await db
        .selectFrom("creation")
        .select([...postColumns("creation"), "creation.title", "creation.description"])
        .where("id", "in", ids)
        .execute();
      return postDocuments(
        kind,
        rows,
        (r) => ({ title: r.title }),
        (r) => (r.body ? `${r.description}\n\n${r.body}` : r.description),
      );
    }
    case "comment": {
      const rows = await db
        .selectFrom("creation_comment")
        .innerJoin("creation", "creation.id", "creation_comment.creation_id")
        .select([...postColumns("creation_comment"), "creation_comment.creation_id as parent_id", "creation.hidden_at as parent_hidden_at"])
        .where("creation_comment.id", "in", ids)
        .execute();
      return postDocuments(kind, rows);
    }
    case "challenge": {
      const rows = await db
        .selectFrom("challenge")
        .select(["id", "title", "description", "created_by", "created_at", "published_at", "status"])
        .where("id", "in", ids)
        .execute();
      const virtues = await virtuesOf(db, "challenge_virtue", "challenge_id", ids);
      return rows
        .filter((r) => r.status === "published")
        .map((r) => ({
          kind,
          ref_id: r.id,
          title: r.title,
          body: searchText(r.description),
          author_id: r.created_by,
          virtues: virtues.get(r.id) ?? "",
          created_at: r.published_at ?? r.created_at,
        }));
    }
    case "event": {
      const rows = await db
        .selectFrom("event")
        .select(["id", "title", "description", "place", "host_id", "created_at", "cancelled_at"])
        .where("id", "in", ids)
        .execute();
      return rows
        .filter((r) => r.cancelled_at === null)
        .map((r) => ({
          kind,
          ref_id: r.id,
          title: r.title,
          body: searchText(r.place ? `${r.description}\n\n${r.place}` : r.description),
          author_id: r.host_id,
          created_at: r.created_at,
        }));
    }
  }
}

async function virtuesOf(db: Executor, table: "question_virtue" | "challenge_virtue", column: "question_id" | "challenge_id", ids: readonly number[]) {
  const rows = (await db
    .selectFrom(table)
    .select([`${column} as id` as "question_id as id", "virtue"])
    .where(column as "question_id", "in", ids)
    .execute()) as Array<{ id: number; virtue: string }>;
  const byId = new Map<number, string[]>();
  for (const r of rows) byId.set(r.id, [...(byId.get(r.id) ?? []), r.virtue]);
  return new Map([...byId].map(([id, virtues]) => [id, ` ${virtues.sort().join(" ")} `]));
}

/** Writes these things' rows as they are now and removes the rows of those no longer findable. */
async function writeDocuments(db: Executor, kind: SearchKind, ids: readonly number[]) {
  const rows = await documentsOf(db, kind, ids);
  const kept = new Set(rows.map((r) => r.ref_id));
  const gone = ids.filter((id) => !kept.has(id));
  if (gone.length > 0) await db.deleteFrom("search_document").where("kind", "=", kind).where("ref_id", "in", gone).execute();
  await upsertDocuments(db, rows);
  return rows;
}

/** Inserts these rows, in this order, or updates the ones already there (an edit keeps its row's id). */
async function upsertDocuments(db: Executor, rows: readonly Row[]) {
  if (rows.length === 0) return;
  const values = rows.map((row) => ({
    ...row,
    parent_id: row.parent_id ?? null,
    title: row.title ?? "",
    section: row.section ?? null,
    virtues: row.virtues ?? "",
    hidden: row.hidden ?? 0,
    parent_hidden: row.parent_hidden ?? 0,
  }));
  await db
    .insertInto("search_document")
    .values(values)
    .onConflict((oc) =>
      oc.columns(["kind", "ref_id"]).doUpdateSet((eb) => ({
        parent_id: eb.ref("excluded.parent_id"),
        title: eb.ref("excluded.title"),
        body: eb.ref("excluded.body"),
        author_id: eb.ref("excluded.author_id"),
        section: eb.ref("excluded.section"),
        virtues: eb.ref("excluded.virtues"),
        created_at: eb.ref("excluded.created_at"),
        hidden: eb.ref("excluded.hidden"),
        parent_hidden: eb.ref("excluded.parent_hidden"),
      })),
    )
    .execute();
}

/**
 * Brings the index in line with these things, inside the writer's transaction: their rows made
 * again, and a discussion's, question's or creation's children flagged as it is (hidden or not).
 */
export async function indexSearch(trx: Executor, subjects: readonly SearchSubject[]): Promise<void> {
  const byKind = new Map<SearchKind, number[]>();
  for (const s of subjects) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s.id]);
  for (const [kind, ids] of byKind) {
    const rows = await writeDocuments(trx, kind, ids);
    const children = CHILDREN[kind];
    if (!children) continue;
    // A deleted parent leaves its children findable (the thread stays readable); a hidden one hides them.
    const hiddenParents = rows.filter((r) => r.hidden === 1).map((r) => r.ref_id);
    const shownParents = ids.filter((id) => !hiddenParents.includes(id));
    for (const [parents, hidden] of [
      [hiddenParents, 1],
      [shownParents, 0],
    ] as const) {
      if (parents.length === 0) continue;
      await trx
        .updateTable("search_document")
        .set({ parent_hidden: hidden })
        .where("parent_id", "in", parents)
        .where("kind", "=", children)
        .where("parent_hidden", "!=", hidden)
        .execute();
    }
  }
}

const SOURCES: Record<SearchKind, "discussion" | "reply" | "question" | "answer" | "creation" | "creation_comment" | "challenge" | "event"> = {
  discussion: "discussion",
  reply: "reply",
  question: "question",
  answer: "answer",
  creation: "creation",
  comment: "creation_comment",
  challenge: "challenge",
  event: "event",
};
const KINDS = Object.keys(SOURCES) as SearchKind[];

/** How many rows one step of a rebuild reads and writes. */
const REBUILD_BATCH = 500;
/** How many ids and times one step of a rebuild's first pass reads. */
const TIMES_BATCH = 10_000;

/**
 * Every thing that may have a row, oldest first (by the time its row will carry, then kind and id),
 * as parallel arrays of numbers: about 30 MB for a million posts, where objects would take several
 * times that.
 */
async function everythingByTime(db: Executor) {
  const kinds: number[] = [];
  const ids: number[] = [];
  const times: number[] = [];
  for (const [k, kind] of KINDS.entries()) {
    const table = SOURCES[kind];
    for (let after = 0; ;) {
      // A challenge's row carries the time it was published (documentsOf), the others their creation's.
      const rows = (await db
        .selectFrom(table as "challenge")
        .select(table === "challenge" ? ["id", "created_at", "published_at"] : ["id", "created_at"])
        .where("id", ">", after)
        .orderBy("id")
        .limit(TIMES_BATCH)
        .execute()) as Array<{ id: number; created_at: string | Date; published_at?: string | Date | null }>;
      if (rows.length === 0) break;
      for (const r of rows) {
        kinds.push(k);
        ids.push(Number(r.id));
        times.push(toDate(r.published_at ?? r.created_at).getTime());
      }
      after = Number(rows[rows.length - 1]!.id);
    }
  }
  const order = Uint32Array.from(ids, (_, i) => i).sort((a, b) => times[a]! - times[b]! || kinds[a]! - kinds[b]! || ids[a]! - ids[b]!);
  return { order, kinds, ids };
}

/**
 * The whole index made again from the content (demo content, tools that write rows directly, the
 * first start after the index was added or remade), in the caller's transaction if it gives one.
 * The rows go in oldest first, so that their ids follow their time as a live site's do: search
 * walks the newest matches by id (search-sqlite.ts, search-postgres.ts).
 */
export async function rebuildSearchIndex(db: Executor): Promise<number> {
  await db.deleteFrom("search_document").execute();
  const { order, kinds, ids } = await everythingByTime(db);
  let written = 0;
  for (let start = 0; start < order.length; start += REBUILD_BATCH) {
    const batch = order.subarray(start, start + REBUILD_BATCH);
    const place = new Map<string, number>();
    const byKind = new Map<SearchKind, number[]>();
    for (const [at, i] of batch.entries()) {
      const kind = KINDS[kinds[i]!]!;
      place.set(`${kind}:${ids[i]}`, at);
      const group = byKind.get(kind);
      if (group) group.push(ids[i]!);
      else byKind.set(kind, [ids[i]!]);
    }
    const rows: Row[] = [];
    for (const [kind, kindIds] of byKind) rows.push(...(await documentsOf(db, kind, kindIds)));
    rows.sort((a, b) => place.get(`${a.kind}:${a.ref_id}`)! - place.get(`${b.kind}:${b.ref_id}`)!);
    await upsertDocuments(db, rows);
    written += rows.length;
  }
  return written;
}

/** Whether the index has no row at all while there is content to find (the first start after it was added). */
export async function searchIndexNeedsFilling(db: Executor): Promise<boolean> {
  const indexed = await db.selectFrom("search_document").select("id").limit(1).executeTakeFirst();
  if (indexed) return false;
  const posted = await db.selectFrom("discussion").select("id").limit(1).executeTakeFirst();
  return posted !== undefined;
}
