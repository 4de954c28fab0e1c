import { createDatabase, type Db } from "~/.server/db/connect";
import { setRole } from "~/.server/domain/accounts/roles";
import { loadEnv } from "~/.server/env";
import { grantXp as grantXpTo, memberIdByEmail } from "../../factories/member";

/*
 * Roles and XP cannot be earned through the UI in a test's time, so a few specs set them up in the
 * server's database: through Kysely, the app's repositories and the test factories, opened with the
 * settings the server itself reads (DATA_DIR, DATABASE_URL; playwright.config.ts hands them on as
 * E2E_DATA_DIR and E2E_DATABASE_URL, which the workers inherit). No SQL is written here, so the same
 * set-up works on SQLite and PostgreSQL (ADR 0018). The server reads roles and XP per request.
 */
export async function withSiteDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run through playwright.config.ts");
  const env = loadEnv({ DATA_DIR: dataDir, DATABASE_URL: process.env.E2E_DATABASE_URL, LOG_LEVEL: "silent" });
  const db =
    env.DATABASE_ENGINE === "postgres"
      ? createDatabase({ engine: "postgres", url: env.DATABASE_URL, poolSize: 1, applicationName: "ipos-e2e-setup" })
      : createDatabase({ engine: "sqlite", sqlitePath: env.SQLITE_PATH });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/** Makes the member with this email an admin, as `npm run admin -- grant <email> admin` does. */
export async function makeAdmin(email: string) {
  const done = await withSiteDatabase((db) => setRole(db, email, "admin"));
  if (!done) throw new Error(`no member has the email address ${email}`);
}

export async function makeModerator(email: string) {
  const done = await withSiteDatabase((db) => setRole(db, email, "moderator"));
  if (!done) throw new Error(`no member has the email address ${email}`);
}

/** Puts XP on the ledger of the member with this email, so they hold the rank it buys. */
export async function grantXp(email: string, points: number) {
  await withSiteDatabase(async (db) => grantXpTo(db, await memberIdByEmail(db, email), points));
}

/** The newest mail queued in the outbox (mail_outbox) for this address, text part; null when none. */
export async function queuedMailTo(email: string) {
  return withSiteDatabase(async (db) => {
    const row = await db.selectFrom("mail_outbox").select(["subject", "text_body"]).where("to_address", "=", email).orderBy("id", "desc").executeTakeFirst();
    return row ?? null;
  });
}
