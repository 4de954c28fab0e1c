import { inProcessLiveBus } from "~/.server/live/live-bus";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pino from "pino";
import { migrateToLatest } from "../../database/migrate";
import { createAuth } from "~/.server/auth";
import type { AppServices } from "~/.server/context";
import { createDatabase, queryObservers, type Db, type Engine } from "~/.server/db/connect";
import type { Database } from "~/.server/db/schema";
import { loadEnv } from "~/.server/env";
import { createMailer } from "~/.server/mail/mailer";
import { databaseMediaStore } from "~/.server/media/media-store-database";
import { enqueueMail } from "~/.server/mail/outbox";
import { createOutboxWorker } from "~/.server/mail/outbox-worker";
import { resetPasswordMail } from "~/.server/domain/accounts/password-reset";

/** Which engine this run tests: `npm test` uses SQLite, `npm run test:pg` PostgreSQL. */
export const ENGINE: Engine = process.env.TEST_DB === "postgres" ? "postgres" : "sqlite";
export const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestSite {
  services: AppServices;
  /**
   * Where the page cache's invalidation bus listens on PostgreSQL (the site's own database, and a
   * channel of its own so parallel test files never invalidate each other); undefined on SQLite.
   */
  invalidation?: { url: string; channel: string };
  /** Opens the same database again, as a restarted server would. */
  reopen(): Promise<TestSite>;
  /** A second set of services on the same database, as a second app instance would have. */
  another(): Promise<TestSite>;
  close(): Promise<void>;
  /** Removes the database (file or schema). */
  destroy(): Promise<void>;
}

/**
 * Runs `work` while holding the test database's schema lock, one holder at a time across test files
 * and runs. Kysely's migrator lists the tables of every schema in the database (calling
 * `has_schema_privilege` and `pg_get_serial_sequence` on each), and that query fails when another
 * file drops its schema meanwhile, or changes a table of its own in a migration. So migrations and
 * drops take turns. The lock is a session's advisory lock, released when its connection closes,
 * whatever `work` throws.
 */
export async function holdingSchemaLock<T>(pgUrl: string, work: () => Promise<T>): Promise<T> {
  const holder = createDatabase({ engine: "postgres", url: pgUrl, poolSize: 1 });
  try {
    await sql`select pg_advisory_lock(${SCHEMA_LOCK})`.execute(holder);
    return await work();
  } finally {
    await holder.destroy();
  }
}
/** The advisory lock's key: any constant no other code of ours locks ("ipos" in ASCII). */
const SCHEMA_LOCK = 0x69706f73;

/**
 * A real, freshly migrated database for one test file: a new SQLite file, or a new PostgreSQL
 * schema in the test database, so parallel runs never collide.
 */
export async function createTestSite(options: { smtpUrl?: string; pgUrl?: string } = {}): Promise<TestSite> {
  const pgUrl = options.pgUrl ?? PG_URL;
  const id = `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-test-"));
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: dir,
    DEMO_CONTENT: "off",
    LOG_LEVEL: "silent",
    BASE_URL: "http://localhost:3000",
    AUTH_SECRET: "test-secret-that-is-long-enough-0123456789",
    // Every test site checks the page cache's tags against the SQL its requests ran (ADR 0051).
    PAGE_CACHE_AUDIT: "on",
  });
  if (ENGINE === "postgres") {
    const admin = createDatabase({ engine: "postgres", url: pgUrl, poolSize: 1 });
    await sql`create schema ${sql.id(id)}`.execute(admin);
    await admin.destroy();
  }
  const open = async (): Promise<TestSite> => {
    const queries = queryObservers();
    const db =
      ENGINE === "postgres"
        ? createDatabase({ engine: "postgres", url: pgUrl, schema: id, poolSize: 20, applicationName: id, queries })
        : createDatabase({ engine: "sqlite", sqlitePath: path.join(dir, "site.db"), queries });
    if (ENGINE === "postgres") await holdingSchemaLock(pgUrl, () => migrateToLatest(db, { schema: id }));
    else await migrateToLatest(db);
    const logger = pino({ level: "silent" });
    const mailer = createMailer({ smtpUrl: options.smtpUrl, outboxDir: path.join(dir, "outbox"), logger });
    const auth = createAuth({
      db,
      engine: ENGINE,
      secret: env.AUTH_SECRET,
      baseURL: env.BASE_URL,
      // Queued, not sent: Better Auth's request succeeds whether or not SMTP is up (ADR 0025).
      sendResetPassword: async (to, token) => void (await enqueueMail(db, resetPasswordMail(env.BASE_URL, to, token))),
    });
    const services: AppServices = {
      db,
      engine: ENGINE,
      auth,
      env: { ...env, DATABASE_ENGINE: ENGINE },
      logger,
      mailer,
      media: databaseMediaStore(db),
      live: inProcessLiveBus(),
      queries,
    };
    return {
      services,
      invalidation: ENGINE === "postgres" ? { url: pgUrl, channel: `ipos_page_cache_${id}` } : undefined,
      reopen: async () => {
        await db.destroy();
        return open();
      },
      another: open,
      close: () => db.destroy(),
      destroy: async () => {
        await db.destroy().catch(() => {});
        if (ENGINE === "postgres") {
          const admin = createDatabase({ engine: "postgres", url: pgUrl, poolSize: 1 });
          await holdingSchemaLock(pgUrl, () => sql`drop schema if exists ${sql.id(id)} cascade`.execute(admin));
          await admin.destroy();
        }
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  };
  return open();
}

/**
 * Sends what the outbox holds, as the app's worker would on its next rounds: tests call this
 * instead of waiting for the worker's timer. `now` is the clock the worker reads.
 */
export async function deliverQueuedMail(services: AppServices, now = new Date()) {
  return createOutboxWorker(services).drain(now);
}

/** The Cookie header a browser would send back after these Set-Cookie headers. */
export function cookieHeader(setCookies: Headers | string[]): string {
  const list = Array.isArray(setCookies) ? setCookies : setCookies.getSetCookie();
  return list
    .map((c) => c.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

/** Every SQL statement sent through `db` while `fn` runs (the executor all query builders share). */
export async function statementsDuring(db: Db, fn: () => Promise<unknown>) {
  const executor = db.getExecutor();
  const original = executor.executeQuery.bind(executor);
  const seen: string[] = [];
  executor.executeQuery = ((query, id) => {
    seen.push(query.sql);
    return original(query, id);
  }) as typeof executor.executeQuery;
  try {
    await fn();
  } finally {
    executor.executeQuery = original;
  }
  return seen;
}

/** How many rows a table holds. */
export async function rowCount(db: Db, table: keyof Database) {
  return Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
}
