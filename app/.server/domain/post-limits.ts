import { startOfUtcDay } from "~/lib/dates";
import { INITIATE_DAILY_POSTS, INITIATE_DAILY_POSTS_MESSAGE, UNLIMITED_POSTS_RANK } from "~/lib/privileges";
import { isRankAtLeast } from "~/lib/ranks";
import type { AppServices, Viewer } from "../context";
import type { Db } from "../db/connect";
import { lockKeys } from "../db/lock-keys";
import { hit, tryAgainMessage } from "../rate-limit";
import { progressOf } from "./progression/progression-service";
import { fail, writeKey, type Outcome } from "./outcome";
import { WRITE_LIMIT } from "~/lib/limits";
import { findSubmitted, type PostTable } from "./submissions";

/**
 * The posts an initiate's daily limit counts, together (PRODUCT.md §3: "at most 3 new discussions,
 * questions or creations a day, counted together"). Deleted posts still count: deleting one does
 * not make room for another.
 */
export const DAILY_COUNTED = ["discussion", "question", "creation"] as const;
export type DailyCounted = (typeof DAILY_COUNTED)[number];

async function postedToday(trx: Db, authorId: string, now: Date): Promise<number> {
  const since = startOfUtcDay(now);
  const [first, ...rest] = DAILY_COUNTED.map((table) =>
    trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("author_id", "=", authorId)
      .where("created_at", ">=", since),
  );
  const rows = await rest.reduce((all, next) => all.unionAll(next), first).execute();
  return rows.reduce((sum, row) => sum + Number(row.n), 0);
}

/**
 * One member's new post, with every limit on it checked and recorded in the same transaction as
 * the insert, while that member's write lock is held (ADR 0013): parallel posts from one member
 * queue here, so none of them can count before another one is written. The initiate's daily limit
 * applies to the kinds in DAILY_COUNTED; the write burst limit to every post.
 *
 * A repeat of a submission already made (ADR 0009) is no new post: no limit applies and `write`
 * meets the first post through the submission key's unique index.
 */
export async function postWithinLimits<T>(
  services: AppServices,
  viewer: Viewer,
  post: { table: PostTable; submissionKey: string },
  now: Date,
  write: (trx: Db) => Promise<Outcome<T>>,
): Promise<Outcome<T>> {
  return services.db.transaction().execute(async (trx) => {
    await lockKeys(trx, [writeKey(viewer)]);
    if (await findSubmitted(trx, post.table, viewer.id, post.submissionKey)) return write(trx);
    if ((DAILY_COUNTED as readonly string[]).includes(post.table)) {
      const progress = await progressOf(trx, viewer.id);
      if (!isRankAtLeast(progress.rank.id, UNLIMITED_POSTS_RANK) && (await postedToday(trx, viewer.id, now)) >= INITIATE_DAILY_POSTS) {
        return fail(429, INITIATE_DAILY_POSTS_MESSAGE);
      }
    }
    const limited = await hit(trx, [{ key: writeKey(viewer), ...WRITE_LIMIT }], now);
    if (!limited.ok) return fail(429, tryAgainMessage(limited.retryMinutes));
    return write(trx);
  });
}
