import { sql, type Kysely } from "kysely";
import { engineOf } from "./connect";
import type { Database } from "./schema";

/**
 * `reply_hour` holds, per discussion and UTC hour, how many of its replies written in that hour
 * show (not deleted, not hidden): what "the most replied in the last 7 days" sums, so featured
 * discussions read at most a week of hours instead of counting every recent reply (issue 13, ADR 0027).
 */

/** The bucket of an instant: its UTC hour, `YYYY-MM-DDTHH`. */
export function replyHourOf(at: string | Date): string {
  return new Date(at).toISOString().slice(0, 13);
}

/** Sets every bucket from the reply rows (demo content and benchmarks that write replies directly). */
export async function rebuildReplyHours(db: Kysely<Database>) {
  const hour =
    engineOf(db) === "postgres" ? sql<string>`to_char(reply.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24')` : sql<string>`substr(reply.created_at, 1, 13)`;
  await db.deleteFrom("reply_hour").execute();
  await sql`
    insert into reply_hour (discussion_id, section, hour, replies)
    select reply.discussion_id, topic.section, ${hour}, count(*)
    from reply
    join discussion on discussion.id = reply.discussion_id
    join topic on topic.id = discussion.topic_id
    where reply.deleted_at is null and reply.hidden_at is null
    group by reply.discussion_id, topic.section, ${hour}`.execute(db);
}

/**
 * Deletes the buckets of hours before `before`'s hour. Featured discussions read only the last
 * FEATURED_WINDOW_DAYS of them; without this the table keeps a row per discussion and hour for ever.
 * A reply of a pruned hour deleted or restored later moves a fresh bucket of that hour, which no
 * read reaches and the next pruning removes. Returns how many buckets went.
 */
export async function pruneReplyHours(db: Kysely<Database>, before: Date): Promise<number> {
  const removed = await db.deleteFrom("reply_hour").where("hour", "<", replyHourOf(before)).executeTakeFirst();
  return Number(removed.numDeletedRows);
}
