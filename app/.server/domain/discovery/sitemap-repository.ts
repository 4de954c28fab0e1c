import { sql } from "kysely";
import type { Executor } from "../../db/executor";
import { publiclyShown } from "../posts/post-visibility";
import { DELETED_HANDLE_PREFIX } from "~/lib/members";

/**
 * What the sitemap lists, read in id ranges so a part of 50,000 addresses is one primary-key range
 * scan at any size of the site. Hidden and deleted posts are never listed (issue 30).
 */

/** The highest id of each numbered kind: how many parts the index names. */
export async function highestIds(db: Executor) {
  const [discussion, question, creation] = await Promise.all(
    (["discussion", "question", "creation"] as const).map((table) =>
      db
        .selectFrom(table)
        .select((eb) => eb.fn.max("id").as("max"))
        .executeTakeFirst()
        .then((row) => Number(row?.max ?? 0)),
    ),
  );
  return { discussion, question, creation };
}

export async function livingMemberCount(db: Executor) {
  const row = await db
    .selectFrom("member")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("handle", "not like", `${DELETED_HANDLE_PREFIX}%`)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A part's posts of one table: the ids from `first` to `last` (one primary-key range) that anyone may read. */
function publicBetween(table: "discussion" | "question" | "creation", first: number, last: number) {
  const id = sql.ref(`${table}.id`);
  return sql<boolean>`${id} >= ${first} and ${id} <= ${last} and ${publiclyShown(table)}`;
}

export function publicDiscussionsBetween(db: Executor, first: number, last: number) {
  return db
    .selectFrom("discussion")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["discussion.id", "discussion.slug", "discussion.topic_id", "topic.section", "discussion.last_activity_at as at"])
    .where(publicBetween("discussion", first, last))
    .orderBy("discussion.id")
    .execute();
}

export function publicQuestionsBetween(db: Executor, first: number, last: number) {
  return db
    .selectFrom("question")
    .select(["id", "last_activity_at as at"])
    .where(publicBetween("question", first, last))
    .orderBy("id")
    .execute();
}

export function publicCreationsBetween(db: Executor, first: number, last: number) {
  return db
    .selectFrom("creation")
    .select(["id", "created_at", "edited_at"])
    .where(publicBetween("creation", first, last))
    .orderBy("id")
    .execute();
}

export function topicsForSitemap(db: Executor) {
  return db.selectFrom("topic").select(["id", "section", "last_activity_at as at"]).orderBy("section").orderBy("id").execute();
}

/** Events not cancelled; a past event keeps its page. */
export function eventsForSitemap(db: Executor) {
  return db.selectFrom("event").select(["id", "updated_at as at"]).where("cancelled_at", "is", null).orderBy("id").execute();
}

/** Living members, oldest first, `count` of them after `skip`: members are far fewer than posts. */
export function livingMembersPage(db: Executor, skip: number, count: number) {
  return db
    .selectFrom("member")
    .select(["handle", "updated_at as at"])
    .where("handle", "not like", `${DELETED_HANDLE_PREFIX}%`)
    .orderBy("created_at")
    .orderBy("id")
    .offset(skip)
    .limit(count)
    .execute();
}
