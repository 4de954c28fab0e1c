import { startOfUtcDay } from "~/lib/dates";
import { INITIATE_DAILY_POSTS, INITIATE_DAILY_POSTS_MESSAGE, UNLIMITED_POSTS_RANK } from "~/lib/privileges";
import { isRankAtLeast } from "~/lib/ranks";
import { WRITE_LIMIT } from "~/lib/limits";
import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import { speakAllowed } from "../accounts/silence";
import { lockKeys } from "../../db/lock-keys";
import { hit, tryAgainMessage, wouldRefuse } from "../../rate-limit";
import { progressOf } from "../progression/progression-service";
import { fail, writeKey, type Outcome } from "../outcome";
import { DAILY_COUNTED, POST_KINDS, type PostKind } from "./post-kinds";
import { findSubmitted, postedSince } from "./post-repository";

/**
 * The pipeline's "limits" step: one member's new post, with every limit on it checked and recorded
 * in the same transaction as the insert, while that member's write lock is held (ADR 0013):
 * parallel posts from one member queue here, so none of them can count before another one is
 * written. The initiate's daily limit is one count over every kind in DAILY_COUNTED (PRODUCT.md §3:
 * "at most 3 new discussions, questions or creations a day, counted together"; deleted posts still
 * count); the write burst limit applies to every post.
 *
 * A repeat of a submission already made (ADR 0009) is no new post: no limit applies and `write`
 * meets the first post through the submission key's unique index.
 */
export async function postWithinLimits<T>(
  services: AppServices,
  viewer: Viewer,
  post: { kind: PostKind; submissionKey: string },
  now: Date,
  write: (trx: Db) => Promise<Outcome<T>>,
): Promise<Outcome<T>> {
  return services.db.transaction().execute(async (trx) => {
    await lockKeys(trx, [writeKey(viewer)]);
    if (await findSubmitted(trx, post.kind, viewer.id, post.submissionKey)) return write(trx);
    const speaking = await speakAllowed(trx, viewer, now);
    if (!speaking.ok) return speaking;
    if (await dailyLimitReached(trx, viewer, post.kind, now)) return fail(429, INITIATE_DAILY_POSTS_MESSAGE);
    const limited = await hit(trx, [{ key: writeKey(viewer), ...WRITE_LIMIT }], now);
    if (!limited.ok) return fail(429, tryAgainMessage(limited.retryMinutes));
    return write(trx);
  });
}

/**
 * The same limits read ahead, locking and recording nothing: a cheap refusal before expensive work
 * (decoding an upload, ADR 0043). `postWithinLimits` still decides when the post is written, so a
 * member who passes here and loses a race there is refused all the same. A repeated submission
 * answers with the post it already made, which no limit stops.
 */
export async function postLimitsAhead(
  db: Db,
  viewer: Viewer,
  post: { kind: PostKind; submissionKey: string },
  now: Date,
): Promise<Outcome<{ madeAlready: number | null }>> {
  const first = await findSubmitted(db, post.kind, viewer.id, post.submissionKey);
  if (first) return { ok: true, value: { madeAlready: first.id } };
  const speaking = await speakAllowed(db, viewer, now);
  if (!speaking.ok) return speaking;
  if (await dailyLimitReached(db, viewer, post.kind, now)) return fail(429, INITIATE_DAILY_POSTS_MESSAGE);
  const limited = await writeLimitAhead(db, viewer, now);
  return limited.ok ? { ok: true, value: { madeAlready: null } } : limited;
}

/** The write burst limit read ahead (an edit's), recording nothing; see postLimitsAhead. */
export async function writeLimitAhead(db: Db, viewer: Viewer, now: Date): Promise<Outcome<null>> {
  const limited = await wouldRefuse(db, [{ key: writeKey(viewer), ...WRITE_LIMIT }], now);
  return limited.ok ? { ok: true, value: null } : fail(429, tryAgainMessage(limited.retryMinutes));
}

/** An initiate who has made the day's posts of the kinds counted together (a rank above has no limit). */
async function dailyLimitReached(db: Db, viewer: Viewer, kind: PostKind, now: Date) {
  return (await postsLeftToday(db, viewer, kind, now)) === 0;
}

/**
 * How many more posts of this kind the member may start today, read only (nothing locked or
 * recorded), for a form that says so before the member fills it (issue 26); `null` when no daily
 * limit applies (a kind not counted, or a rank above initiate). A page's figure, never the
 * decision: `postWithinLimits` still checks and records each post atomically.
 */
export async function postsLeftToday(db: Db, viewer: Viewer, kind: PostKind, now: Date): Promise<number | null> {
  if (!POST_KINDS[kind].daily) return null;
  const progress = await progressOf(db, viewer.id);
  if (isRankAtLeast(progress.rank.id, UNLIMITED_POSTS_RANK)) return null;
  return Math.max(0, INITIATE_DAILY_POSTS - (await postedSince(db, DAILY_COUNTED, viewer.id, startOfUtcDay(now))));
}
