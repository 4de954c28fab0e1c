import { inProcessLiveBus } from "./live/live-bus";
import type { Logger } from "pino";
import { createAuth } from "./auth";
import type { AppServices } from "./context";
import { createDatabase, queryObservers, type Db } from "./db/connect";
import { insertDemoContent } from "./db/demo-content";
import { rebuildSearchIndex, searchIndexNeedsFilling } from "./db/search/search-documents";
import { describeDatabaseUrl, isDatabaseUnavailable, unavailableReason } from "./db/unavailable";
import type { Env } from "./env";
import { createMailer } from "./mail/mailer";
import { databaseMediaStore } from "./media/media-store-database";
import { enqueueMail } from "./mail/outbox";
import { resetPasswordMail } from "./domain/accounts/password-reset";
import path from "node:path";

/**
 * Brings a database to the latest migration and returns the names applied. The migrations live in
 * database/, which app/ does not import (ADR 0016): server/ passes this in.
 */
export type Migrate = (db: Db) => Promise<string[]>;

/** Opens the database, brings it to the latest migration, adds demo content on an empty one. */
export async function createServices(
  env: Env,
  logger: Logger,
  migrateToLatest: Migrate,
  options: { onQuery?: (milliseconds: number) => void } = {},
): Promise<AppServices> {
  // The page-cache audit's view of the SQL (ADR 0051): no wrapper at all unless it is on.
  const queries = env.PAGE_CACHE_AUDIT ? queryObservers() : undefined;
  const db = createDatabase(
    env.DATABASE_ENGINE === "postgres"
      ? {
          engine: "postgres",
          url: env.DATABASE_URL,
          poolSize: env.DATABASE_POOL_SIZE,
          preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
          queries,
          onQuery: options.onQuery,
          onConnectionError: (error) => logger.warn({ reason: unavailableReason(error) }, "database connection lost; the pool reconnects"),
        }
      : { engine: "sqlite", sqlitePath: env.SQLITE_PATH, queries, onQuery: options.onQuery },
  );
  const where = env.DATABASE_ENGINE === "postgres" ? describeDatabaseUrl(env.DATABASE_URL!) : env.SQLITE_PATH;
  const applied = await untilReachable(() => migrateToLatest(db), db, where, env.DATABASE_RETRY_SECONDS, logger);
  if (applied.length > 0) logger.info({ migrations: applied }, "database migrated");
  if (env.DEMO_CONTENT && (await insertDemoContent(db))) logger.info("demo content added");
  // The first start after search came (issue 30): the index is made from what is already there.
  if (await searchIndexNeedsFilling(db)) {
    // One transaction: a start stopped halfway leaves the index empty, to be made again next time.
    logger.info({ documents: await db.transaction().execute((trx) => rebuildSearchIndex(trx)) }, "search index built");
  }
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, outboxDir: path.join(env.DATA_DIR, "outbox"), logger, from: env.MAIL_FROM });
  const auth = createAuth({
    db,
    engine: env.DATABASE_ENGINE,
    secret: env.AUTH_SECRET,
    baseURL: env.BASE_URL,
    // Queued, not sent: Better Auth's request succeeds whether or not SMTP is up (ADR 0025).
    sendResetPassword: async (to, token) => void (await enqueueMail(db, resetPasswordMail(env.BASE_URL, to, token))),
  });
  // The one MediaStore so far; an S3-compatible one would be chosen here by configuration.
  const media = databaseMediaStore(db);
  return { db, engine: env.DATABASE_ENGINE, auth, env, logger, mailer, media, queries, live: inProcessLiveBus() };
}

/** Raised when the database stayed unreachable for the whole retry bound; its message is the line to print. */
export class DatabaseUnreachableError extends Error {
  override name = "DatabaseUnreachableError";
}

/**
 * The first contact with the database, retried with backoff while the database is unreachable (an
 * orchestrator often starts the site before its database), one log line per failure, for at most
 * `boundSeconds`. Any other error (a broken migration) fails at once.
 */
async function untilReachable<T>(attempt: () => Promise<T>, db: Db, where: string, boundSeconds: number, logger: Logger): Promise<T> {
  const deadline = Date.now() + boundSeconds * 1000;
  for (let delay = 1; ; delay = Math.min(delay * 2, 10)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const reason = unavailableReason(error);
      const wait = Math.min(delay, Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
      if (wait <= 0) {
        await db.destroy().catch(() => {});
        throw new DatabaseUnreachableError(`Database unreachable at ${where} (${reason}); gave up after ${boundSeconds} s`);
      }
      logger.warn({ reason }, `Database unreachable at ${where} (${reason}); retrying in ${wait} s`);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }
}
