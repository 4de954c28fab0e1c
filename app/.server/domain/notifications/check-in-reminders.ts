import type { AppServices } from "../../context";
import type { Db } from "../../db/connect";
import type { Executor } from "../../db/executor";
import { lockKeys } from "../../db/lock-keys";
import { localDay } from "~/lib/calendar-days";
import { utcToZoned } from "~/lib/time-zones";
import { activeAttemptIds, activeAttemptsAfter, checkedInPairs, existingGroupKeys, markGroupRead } from "./check-in-reminder-repository";
import { notify, ringBells } from "./notification-service";

/**
 * "A challenge you are on needs today's check-in" (issue 28): once a day per attempt, in the
 * evening of the member's own calendar day (ADR 0022's days), while they have not checked in.
 * A periodic job of the outbox worker; after its commit it rings the reminded members' bells, so
 * their open pages show the count without a reload.
 */

/** The local hour from which a day not yet checked in is reminded: late enough to be a nudge, early enough to act on. */
export const CHECK_IN_REMINDER_HOUR = 18;

/** Attempts looked at per tick: a large site is worked through over several ticks. */
export const CHECK_IN_BATCH = 200;

/**
 * A reminder's group key names its attempt and day: the one deterministic thing that says "already
 * reminded today", whether the line was read since or not.
 */
export const checkInReminderKey = (attemptId: number, day: string) => `check_in:${attemptId}:${day}`;

const KEY = /^check_in:(\d{1,10}):(\d{4}-\d{2}-\d{2})$/;

export function parseCheckInReminderKey(key: string | null): { attemptId: number; day: string } | null {
  const match = key === null ? null : KEY.exec(key);
  return match ? { attemptId: Number(match[1]), day: match[2] } : null;
}

/** The hour on the member's clock; an unknown zone counts as UTC, as `localDay` does. */
function localHour(at: Date, zone: string): number {
  let wallClock: string;
  try {
    wallClock = utcToZoned(at, zone);
  } catch {
    wallClock = utcToZoned(at, "UTC");
  }
  return Number(wallClock.slice(11, 13));
}

/** A local day starts at most a day before now, so a reminder of today is younger than two days. */
const TWO_DAYS_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * One batch: of the active attempts after `afterId`, those whose member's local day is within the
 * attempt, past CHECK_IN_REMINDER_HOUR and not checked in get a "check_in" line, unless that day's
 * line exists (read or not). `notify` applies the member's "check_in" setting. Returns how many were
 * reminded (and who), how many attempts the batch held and the last one's id (the next batch's cursor).
 */
export async function remindCheckIns(db: Db, now: Date, options: { afterId?: number; limit?: number } = {}) {
  const limit = options.limit ?? CHECK_IN_BATCH;
  const attempts = await activeAttemptsAfter(db, options.afterId ?? 0, limit);
  const lastId = attempts.length > 0 ? Number(attempts.at(-1)!.id) : null;
  const due = attempts
    .map((a) => ({ ...a, id: Number(a.id), today: localDay(now, a.time_zone) }))
    .filter((a) => a.starts_on <= a.today && a.today <= a.ends_on && localHour(now, a.time_zone) >= CHECK_IN_REMINDER_HOUR);
  if (due.length === 0) return { reminded: 0, seen: attempts.length, lastId, told: [] };
  const checkedIn = await checkedInPairs(
    db,
    due.map((a) => ({ attemptId: a.id, day: a.today })),
  );
  const since = new Date(now.getTime() - TWO_DAYS_MS).toISOString();
  const open = due.filter((a) => !checkedIn.has(`${a.id}:${a.today}`)).map((a) => ({ ...a, key: checkInReminderKey(a.id, a.today) }));
  const written = await existingGroupKeys(
    db,
    open.map((a) => a.member_id),
    open.map((a) => a.key),
    since,
  );
  const todo = open.filter((a) => !written.has(a.key));
  if (todo.length === 0) return { reminded: 0, seen: attempts.length, lastId, told: [] };
  const reminded = await db.transaction().execute(async (trx) => {
    // Another instance's tick may be at the same attempts: the keys are locked (PostgreSQL; SQLite
    // writers are serial) and looked up again, so a day is reminded once.
    await lockKeys(
      trx,
      todo.map((a) => a.key),
    );
    const already = await existingGroupKeys(
      trx,
      todo.map((a) => a.member_id),
      todo.map((a) => a.key),
      since,
    );
    const told: string[] = [];
    for (const a of todo) {
      if (already.has(a.key)) continue;
      // One notify per attempt: notify keeps one notice per member, and a member may be on several.
      const to = await notify(
        trx,
        null,
        [
          {
            memberId: a.member_id,
            kind: "check_in",
            subject: `challenge:${a.challenge_id}`,
            parent: null,
            title: a.title,
            url: `/challenges/${a.challenge_id}`,
            group: a.key,
          },
        ],
        now,
      );
      told.push(...to);
    }
    return told;
  });
  return { reminded: reminded.length, seen: attempts.length, lastId, told: reminded };
}

/**
 * The reminder as a job for the outbox worker's tick: each tick one batch, the next one after it,
 * and from the start again once a batch comes back short. The cursor is this process's own; with
 * several instances each walks the attempts, and the lock and keys keep a day's reminder single.
 */
export function checkInReminderJob(limit = CHECK_IN_BATCH) {
  let afterId = 0;
  return async (db: Db, now: Date, services?: AppServices) => {
    const batch = await remindCheckIns(db, now, { afterId, limit });
    afterId = batch.seen < limit || batch.lastId === null ? 0 : batch.lastId;
    // After the commit, as every write does: the reminded members' open pages show the new count.
    if (services) await ringBells(services, batch.told);
    return batch.reminded;
  };
}

/**
 * A check-in made answers that day's reminder: its line is marked read, so the bell no longer
 * counts it. For the check-in's own transaction (challenge-service's `checkIn`).
 */
export function settleCheckInReminder(trx: Executor, memberId: string, attemptId: number, day: string, now: Date) {
  return markGroupRead(trx, memberId, checkInReminderKey(attemptId, day), now.toISOString());
}

/**
 * Of these unread "check_in" lines of one member, those no longer true now: another day's on the
 * member's calendar, a day already checked in, an attempt no longer active. The digest leaves them
 * out of its mail (never "needs today's check-in" for a day that is done).
 */
export async function staleCheckInReminders(db: Executor, lines: ReadonlyArray<{ id: number; group_key: string | null }>, timeZone: string, now: Date) {
  const today = localDay(now, timeZone);
  const stale = new Set<number>();
  const current: Array<{ id: number; attemptId: number; day: string }> = [];
  for (const line of lines) {
    const key = parseCheckInReminderKey(line.group_key);
    if (!key || key.day !== today) stale.add(line.id);
    else current.push({ id: line.id, ...key });
  }
  if (current.length === 0) return stale;
  // One after the other: `db` may be a transaction, one connection.
  const checkedIn = await checkedInPairs(db, current);
  const active = await activeAttemptIds(
    db,
    current.map((c) => c.attemptId),
  );
  for (const c of current) if (checkedIn.has(`${c.attemptId}:${c.day}`) || !active.has(c.attemptId)) stale.add(c.id);
  return stale;
}
