import type { Db } from "../../db/connect";
import { pruneReplyHours } from "../../db/reply-hours";
import { FEATURED_WINDOW_DAYS } from "./section-repository";

const DAY_MS = 24 * 60 * 60 * 1000;
const EVERY_MS = 60 * 60 * 1000;

/**
 * The outbox worker's job (it calls jobs every round, a few seconds apart) that keeps `reply_hour`
 * to the featured window plus a day of margin, at most once an hour per process: the delete walks
 * the hour index, and several instances pruning the same rows is harmless.
 */
export function replyHourPruningJob() {
  let last = -Infinity;
  return async (db: Db, now: Date) => {
    if (now.getTime() - last < EVERY_MS) return 0;
    last = now.getTime();
    return pruneReplyHours(db, new Date(now.getTime() - (FEATURED_WINDOW_DAYS + 1) * DAY_MS));
  };
}
