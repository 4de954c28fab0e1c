import type { Selectable } from "kysely";
import type { AppServices } from "../context";
import type { Db } from "../db/connect";
import type { MailOutboxTable } from "../db/schema";
import { isDatabaseUnavailable, unavailableReason } from "../db/unavailable";
import type { Mailer } from "./mailer";
import { outsideRequest } from "../cache/page-tags";
import { pruneHits } from "../rate-limit";
import { onMailQueued, OUTBOX_KEEP_DAYS, pruneOutbox } from "./outbox";

/**
 * Work that queues mail on a schedule (event reminders, …): run on every tick before sending. The
 * services, given by the worker (not by tests of a job alone), are there for what a job tells open
 * pages after its commit (a reminder's bell).
 */
export type PeriodicJob = (db: Db, now: Date, services?: AppServices) => Promise<unknown>;

/**
 * A job that runs on the first round and then only once `everyMs` has passed (by the rounds'
 * clock), for housekeeping that need not run every few seconds. Skipped rounds return 0.
 */
export function atMostEvery<T>(everyMs: number, job: (db: Db, now: Date, services?: AppServices) => Promise<T>) {
  let last = -Infinity;
  return async (db: Db, now: Date, services?: AppServices): Promise<T | 0> => {
    if (now.getTime() - last < everyMs) return 0;
    last = now.getTime();
    return job(db, now, services);
  };
}

/** Once an hour, the mail sent or given up more than OUTBOX_KEEP_DAYS ago leaves the outbox. */
export const outboxPruningJob = () =>
  atMostEvery(60 * 60 * 1000, (db, now) => pruneOutbox(db, new Date(now.getTime() - OUTBOX_KEEP_DAYS * 24 * 60 * 60 * 1000)));

/** Once an hour, rate-limit hits over a day old (every window is shorter) are deleted. */
export const rateLimitPruningJob = () => atMostEvery(60 * 60 * 1000, (db, now) => pruneHits(db, new Date(now.getTime() - 24 * 60 * 60 * 1000)));

export interface OutboxWorkerOptions {
  /** Rows claimed per round. */
  batchSize?: number;
  /** How often the worker looks for due mail when nothing nudged it. */
  pollMs?: number;
  /**
   * How long a claim holds: a claimed row's next_attempt_at moves this far ahead, so an instance
   * that dies mid-send gives its rows back after this (the mail may then go out twice, never zero
   * times). Longer than any send: nodemailer's own timeouts end a stuck send first.
   */
  leaseMs?: number;
  /** Attempts before the worker gives up on a mail (failed_at) and logs it. */
  maxAttempts?: number;
  /** The wait after the first failure; it doubles per attempt up to backoffCapMs. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  jobs?: PeriodicJob[];
  /** Defaults to services.mailer. */
  mailer?: Mailer;
}

export const OUTBOX_DEFAULTS = {
  batchSize: 20,
  pollMs: 3_000,
  leaseMs: 5 * 60_000,
  maxAttempts: 8,
  backoffBaseMs: 30_000,
  backoffCapMs: 60 * 60_000,
} as const;

export interface RoundResult {
  sent: number;
  /** Failed this time and will be tried again. */
  retrying: number;
  /** Failed for the last time. */
  gaveUp: number;
}

type OutboxRow = Selectable<MailOutboxTable>;

/** The wait before attempt `attempts + 1`, after `attempts` failures: 30 s, 1 min, 2 min, … capped. */
export function backoffMs(attempts: number, base: number = OUTBOX_DEFAULTS.backoffBaseMs, cap: number = OUTBOX_DEFAULTS.backoffCapMs) {
  return Math.min(cap, base * 2 ** Math.max(0, attempts - 1));
}

/**
 * Claims due rows and pushes their next_attempt_at forward as a lease, in one step, so two
 * instances never claim the same row. PostgreSQL: SELECT … FOR UPDATE SKIP LOCKED inside a
 * transaction (a second worker skips the rows the first holds instead of waiting for them).
 * SQLite: one UPDATE … RETURNING; writers are serialised, so the statement is the claim.
 */
async function claimDue(services: AppServices, now: Date, limit: number, leaseMs: number): Promise<OutboxRow[]> {
  const nowIso = now.toISOString();
  const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
  if (services.engine === "postgres") {
    return services.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom("mail_outbox")
        .selectAll()
        .where("sent_at", "is", null)
        .where("failed_at", "is", null)
        .where("next_attempt_at", "<=", nowIso)
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (rows.length > 0) {
        await trx
          .updateTable("mail_outbox")
          .set({ next_attempt_at: leaseUntil })
          .where(
            "id",
            "in",
            rows.map((r) => r.id),
          )
          .execute();
      }
      return rows;
    });
  }
  const rows = await services.db
    .updateTable("mail_outbox")
    .set({ next_attempt_at: leaseUntil })
    .where("id", "in", (eb) =>
      eb
        .selectFrom("mail_outbox")
        .select("id")
        .where("sent_at", "is", null)
        .where("failed_at", "is", null)
        .where("next_attempt_at", "<=", nowIso)
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(limit),
    )
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

function errorText(error: unknown) {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 500);
}

/**
 * The process's mail sender (ADR 0025): each round runs the periodic jobs, then claims due outbox
 * rows and sends them through the mailer (SMTP, or .eml files), marking each sent, or recording the
 * error and backing off, or giving up after maxAttempts. `runOnce(now)` and `drain(now)` let tests
 * move the clock; `start()` runs rounds on a timer and when a mail is queued in this process.
 */
export function createOutboxWorker(services: AppServices, options: OutboxWorkerOptions = {}) {
  const settings = { ...OUTBOX_DEFAULTS, ...options };
  const mailer = options.mailer ?? services.mailer;
  const jobs = options.jobs ?? [];
  const { logger } = services;

  async function send(row: OutboxRow, now: Date): Promise<keyof RoundResult> {
    try {
      await mailer.send({
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        headers: JSON.parse(row.headers) as Record<string, string>,
      });
    } catch (error) {
      const attempts = row.attempts + 1;
      const giveUp = attempts >= settings.maxAttempts;
      await services.db
        .updateTable("mail_outbox")
        .set({
          attempts,
          last_error: errorText(error),
          ...(giveUp
            ? { failed_at: now.toISOString() }
            : { next_attempt_at: new Date(now.getTime() + backoffMs(attempts, settings.backoffBaseMs, settings.backoffCapMs)).toISOString() }),
        })
        .where("id", "=", row.id)
        .execute();
      if (giveUp) logger.error({ mailId: row.id, kind: row.kind, attempts, err: error }, "mail given up after its last attempt");
      else logger.warn({ mailId: row.id, kind: row.kind, attempts, err: error }, "mail not sent; it will be retried");
      return giveUp ? "gaveUp" : "retrying";
    }
    await services.db
      .updateTable("mail_outbox")
      .set({ sent_at: now.toISOString(), attempts: row.attempts + 1, last_error: null })
      .where("id", "=", row.id)
      .execute();
    return "sent";
  }

  /** One round: the periodic jobs, then one batch of due mail. */
  async function runOnce(now = new Date()): Promise<RoundResult & { claimed: number }> {
    for (const job of jobs) {
      try {
        await job(services.db, now, services);
      } catch (error) {
        logger.error({ err: error }, "outbox periodic job failed");
      }
    }
    const result = { claimed: 0, sent: 0, retrying: 0, gaveUp: 0 };
    const rows = await claimDue(services, now, settings.batchSize, settings.leaseMs);
    result.claimed = rows.length;
    for (const row of rows) result[await send(row, now)] += 1;
    return result;
  }

  /** Rounds until nothing is due at `now` (a failed mail waits for its backoff, so this ends). */
  async function drain(now = new Date()): Promise<RoundResult> {
    const total = { sent: 0, retrying: 0, gaveUp: 0 };
    for (;;) {
      const round = await runOnce(now);
      total.sent += round.sent;
      total.retrying += round.retrying;
      total.gaveUp += round.gaveUp;
      if (round.claimed === 0) return total;
    }
  }

  /** Runs rounds every pollMs and soon after a mail is queued here; returns the stop function. */
  function start(): () => Promise<void> {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    let again = false;

    const schedule = (ms: number) => {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(tick, ms);
      timer.unref();
    };
    const tick = () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        try {
          // A full batch means more is due: go on at once rather than after a poll.
          while (!stopped && (await runOnce()).claimed === settings.batchSize);
        } catch (error) {
          // An outage is an operating condition (ADR 0015): the next round tries again.
          if (isDatabaseUnavailable(error)) logger.warn({ reason: unavailableReason(error) }, "outbox round skipped: database unavailable");
          else logger.error({ err: error }, "outbox round failed");
        }
      })().finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(settings.pollMs);
      });
    };
    // The queuing transaction may not have committed yet when the nudge comes: look right away,
    // and once more a moment later, before falling back to the poll.
    const nudgeTimers = new Set<NodeJS.Timeout>();
    // The nudge comes from inside the request that queued the mail; the rounds it starts are not
    // that request's (their jobs write member rows and tags of their own).
    const stopListening = onMailQueued(() =>
      outsideRequest(() => {
        for (const ms of [50, 500]) {
          const t = setTimeout(() => {
            nudgeTimers.delete(t);
            tick();
          }, ms);
          t.unref();
          nudgeTimers.add(t);
        }
      }),
    );
    schedule(0);

    return async () => {
      stopped = true;
      stopListening();
      clearTimeout(timer);
      for (const t of nudgeTimers) clearTimeout(t);
      await running;
    };
  }

  return { runOnce, drain, start };
}

/** Starts the worker in this process; the returned function stops it after the round in flight. */
export function startOutboxWorker(services: AppServices, options: OutboxWorkerOptions = {}) {
  return createOutboxWorker(services, options).start();
}
