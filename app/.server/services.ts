import type { Logger } from "pino";
import { insertDemoContent } from "../../database/demo-content";
import { migrateToLatest } from "../../database/migrate";
import { createAuth } from "./auth";
import type { AppServices } from "./context";
import { createDatabase } from "./db/connect";
import type { Env } from "./env";
import { createMailer } from "./mail/mailer";
import { resetPasswordMail } from "./domain/accounts/password-reset";
import path from "node:path";

/** Opens the database, brings it to the latest migration, adds demo content on an empty one. */
export async function createServices(env: Env, logger: Logger): Promise<AppServices> {
  const db = createDatabase(
    env.DATABASE_ENGINE === "postgres"
      ? { engine: "postgres", url: env.DATABASE_URL }
      : { engine: "sqlite", sqlitePath: env.SQLITE_PATH },
  );
  const applied = await migrateToLatest(db);
  if (applied.length > 0) logger.info({ migrations: applied }, "database migrated");
  if (env.DEMO_CONTENT && (await insertDemoContent(db))) logger.info("demo content added");
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, outboxDir: path.join(env.DATA_DIR, "outbox"), logger });
  const auth = createAuth({
    db,
    engine: env.DATABASE_ENGINE,
    secret: env.AUTH_SECRET,
    baseURL: env.BASE_URL,
    sendResetPassword: (to, token) => mailer.send(resetPasswordMail(env.BASE_URL, to, token)),
  });
  return { db, engine: env.DATABASE_ENGINE, auth, env, logger, mailer };
}
