import { pruneReplyHours } from "../../db/reply-hours";
import { atMostEvery } from "../../mail/outbox-worker";
import { FEATURED_WINDOW_DAYS } from "./section-repository";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The outbox worker's job (its rounds are seconds apart) that keeps `reply_hour` to the featured
 * window plus a day of margin, once an hour per process: the delete walks the hour index, and
 * several instances pruning the same rows is harmless.
 */
export const replyHourPruningJob = () =>
  atMostEvery(60 * 60 * 1000, (db, now) => pruneReplyHours(db, new Date(now.getTime() - (FEATURED_WINDOW_DAYS + 1) * DAY_MS)));
