import type { Executor } from "../../db/executor";
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

export function publicDiscussionsBetween(db: Executor, first: number, last: number) {
  return db
    .selectFrom("discussion")
    .innerJoin("topic", "topic.id", "discussion.topic_id")
    .select(["discussion.id", "discussion.slug", "discussion.topic_id", "topic.section", "discussion.last_activity_at as at"])
    .where("discussion.id", ">=", first)
    .where("discussion.id", "<=", last)
    .where("discussion.hidden_at", "is", null)
    .where("discussion.deleted_at", "is", null)
    .orderBy("discussion.id")
    .execute();
}

export function publicQuestionsBetween(db: Executor, first: number, last: number) {
  return db
    .selectFrom("question")
    .select(["id", "last_activity_at as at"])
    .where("id", ">=", first)
    .where("id", "<=", last)
    .where("hidden_at", "is", null)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .execute();
}

export function publicCreationsBetween(db: Executor, first: number, last: number) {
  return db
    .selectFrom("creation")
    .select(["id", "created_at", "edited_at"])
    .where("id", ">=", first)
    .where("id", "<=", last)
    .where("hidden_at", "is", null)
    .where("deleted_at", "is", null)
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
