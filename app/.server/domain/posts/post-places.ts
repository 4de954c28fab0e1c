import type { ExpressionBuilder } from "kysely";
import type { Database } from "../../db/schema";
import type { Executor } from "../../db/executor";
import { discussionsWithPlace, repliesWithPlace } from "../forum/forum-repository";
import { discussionPath, replyPath } from "../forum/section-read-model";
import { isPostKind, type PostKind } from "./post-kinds";
import { parseId } from "~/lib/params";

/** A post named by its kind and id, as bookmarks and search hold them. */
export interface PostRef {
  kind: PostKind;
  id: number;
}

/** Where a post is and what a reader recognises it by. */
export interface PostPlace {
  /** Its own title, or the title of the discussion, question or creation it is under. */
  title: string;
  /** The exact place: a reply's page and anchor, an answer's or a comment's anchor. */
  url: string;
  /** Where on the site: "Monastery", "Reply in Battlefield", "Answer in the Council"… */
  where: string;
  /** Deleted by its author. */
  deleted: boolean;
  /** Hidden by a moderator, or under a post that is. */
  hidden: boolean;
}

export const postKey = (ref: PostRef) => `${ref.kind}:${ref.id}`;

/** A post named by a request (an address's or a form's kind and id), or null when none could exist. */
export function postRefOf(kind: unknown, id: unknown): PostRef | null {
  const postId = parseId(id);
  return isPostKind(kind) && postId ? { kind, id: postId } : null;
}

/** The tables that name a post by (kind, post_id). */
type PostMarkTable = "bookmark" | "reaction" | "reaction_count" | "review_item";

/**
 * The rows about any of these posts, in a table that names a post by (kind, post_id): one condition
 * for any number of posts of any kinds (a page's discussion and its replies), their ids grouped by
 * kind, so one query where a query per post would do. `refs` must not be empty.
 */
export function aboutPosts(refs: readonly PostRef[]) {
  const byKind = new Map<PostKind, Set<number>>();
  for (const ref of refs) byKind.set(ref.kind, (byKind.get(ref.kind) ?? new Set()).add(ref.id));
  return (eb: ExpressionBuilder<Database, PostMarkTable>) =>
    eb.or([...byKind].map(([kind, ids]) => eb.and([eb("kind", "=", kind), eb("post_id", "in", [...ids])])));
}

const SECTION_NAME = { monastery: "Monastery", battlefield: "Battlefield" } as const;

/** Where on the site a discussion is, as its place says it: "Monastery", "Battlefield". */
export const discussionWhere = (section: keyof typeof SECTION_NAME) => SECTION_NAME[section];
const hiddenAt = (...values: unknown[]) => values.some((v) => v !== null && v !== undefined);

interface PlaceRow {
  id: number;
  deleted_at: unknown;
  hidden_at: unknown;
  /** A reply's, answer's or comment's parent's: hidden with it. */
  parent_hidden_at?: unknown;
}

/** One kind's places: its rows by id, each made a place (deleted and hidden read alike for every kind). */
function placesOf<R extends PlaceRow>(rows: (db: Executor, ids: number[]) => Promise<R[]>, place: (row: R) => Pick<PostPlace, "title" | "url" | "where">) {
  return async (db: Executor, ids: number[]) =>
    (await rows(db, ids)).map((row): [number, PostPlace] => [
      row.id,
      { ...place(row), deleted: row.deleted_at !== null, hidden: hiddenAt(row.hidden_at, row.parent_hidden_at) },
    ]);
}

const PLACES: Record<PostKind, (db: Executor, ids: number[]) => Promise<Array<[number, PostPlace]>>> = {
  discussion: placesOf(
    (db, ids) => discussionsWithPlace(db).select(["discussion.deleted_at", "discussion.hidden_at"]).where("discussion.id", "in", ids).execute(),
    (d) => ({ title: d.title, url: discussionPath(d.section, d.topic_id, d), where: SECTION_NAME[d.section] }),
  ),
  reply: placesOf(
    (db, ids) =>
      repliesWithPlace(db).select(["reply.deleted_at", "reply.hidden_at", "discussion.hidden_at as parent_hidden_at"]).where("reply.id", "in", ids).execute(),
    (r) => ({
      title: r.title,
      url: replyPath(discussionPath(r.section, r.topic_id, { id: r.discussion_id, slug: r.slug }), r.id),
      where: `Reply in ${SECTION_NAME[r.section]}`,
    }),
  ),
  question: placesOf(
    (db, ids) => db.selectFrom("question").select(["id", "title", "deleted_at", "hidden_at"]).where("id", "in", ids).execute(),
    (q) => ({ title: q.title, url: `/council/${q.id}`, where: "Council" }),
  ),
  answer: placesOf(
    (db, ids) =>
      db
        .selectFrom("answer")
        .innerJoin("question", "question.id", "answer.question_id")
        .select([
          "answer.id",
          "answer.deleted_at",
          "answer.hidden_at",
          "question.id as question_id",
          "question.title",
          "question.hidden_at as parent_hidden_at",
        ])
        .where("answer.id", "in", ids)
        .execute(),
    (a) => ({ title: a.title, url: `/council/${a.question_id}#answer-${a.id}`, where: "Answer in the Council" }),
  ),
  creation: placesOf(
    (db, ids) => db.selectFrom("creation").select(["id", "title", "deleted_at", "hidden_at"]).where("id", "in", ids).execute(),
    (c) => ({ title: c.title, url: `/forge/${c.id}`, where: "Forge" }),
  ),
  comment: placesOf(
    (db, ids) =>
      db
        .selectFrom("creation_comment")
        .innerJoin("creation", "creation.id", "creation_comment.creation_id")
        .select([
          "creation_comment.id",
          "creation_comment.deleted_at",
          "creation_comment.hidden_at",
          "creation.id as creation_id",
          "creation.title",
          "creation.hidden_at as parent_hidden_at",
        ])
        .where("creation_comment.id", "in", ids)
        .execute(),
    (c) => ({ title: c.title, url: `/forge/${c.creation_id}#comment-${c.id}`, where: "Comment in the Forge" }),
  ),
};

/**
 * The places of these posts, by `postKey`: one query per kind asked for, never one per post. A post
 * that does not exist has no entry.
 */
export async function postPlaces(db: Executor, refs: readonly PostRef[]): Promise<Map<string, PostPlace>> {
  const byKind = new Map<PostKind, Set<number>>();
  for (const ref of refs) byKind.set(ref.kind, (byKind.get(ref.kind) ?? new Set()).add(ref.id));
  const read = await Promise.all([...byKind].map(async ([kind, ids]) => ({ kind, rows: await PLACES[kind](db, [...ids]) })));
  const places = new Map<string, PostPlace>();
  for (const { kind, rows } of read) for (const [id, place] of rows) places.set(postKey({ kind, id }), place);
  return places;
}
