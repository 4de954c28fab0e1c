import type { Executor } from "../../db/executor";

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
