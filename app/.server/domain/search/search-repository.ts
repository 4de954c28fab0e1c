import { sql } from "kysely";
import type { Executor } from "../../db/executor";
import { DELETED_HANDLE_PREFIX } from "~/lib/members";

/** What a page of search results shows besides the hits: names, places and titles, one query per kind. */

export async function authorsByIds(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom("member").select(["id", "name", "handle"]).where("id", "in", ids).execute();
}

export async function discussionPlaces(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("discussion")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["discussion.id", "discussion.slug", "discussion.title", "discussion.topic_id", "topic.section"])
    .where("discussion.id", "in", ids)
    .execute();
}

export async function questionTitles(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom("question").select(["id", "title"]).where("id", "in", ids).execute();
}

export async function creationTitles(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom("creation").select(["id", "title"]).where("id", "in", ids).execute();
}

/** `%`, `_` and the escape itself taken literally in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface MemberCursor {
  xp: number;
  handle: string;
}

/**
 * Living members whose name or handle holds every word, most XP first: members are far fewer than
 * posts, so they are matched by name in their own table rather than kept in the index.
 */
export async function membersNamed(db: Executor, words: readonly string[], limit: number, after: MemberCursor | null) {
  let query = db.selectFrom("member").select(["id", "name", "handle", "bio", "rank", "xp"]).where("handle", "not like", `${DELETED_HANDLE_PREFIX}%`);
  for (const word of words) {
    const pattern = `%${likeLiteral(word)}%`;
    query = query.where((eb) =>
      eb.or([sql<boolean>`lower(${eb.ref("name")}) like ${pattern} escape '\\'`, sql<boolean>`${eb.ref("handle")} like ${pattern} escape '\\'`]),
    );
  }
  if (after) query = query.where((eb) => eb.or([eb("xp", "<", after.xp), eb.and([eb("xp", "=", after.xp), eb("handle", ">", after.handle)])]));
  return query.orderBy("xp", "desc").orderBy("handle").limit(limit).execute();
}
