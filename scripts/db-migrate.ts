// `npm run db:migrate`: brings the configured database (see README) to the latest migration.
import pino from "pino";
import { createDatabase } from "../app/.server/db/connect";
import { loadEnv } from "../app/.server/env";
import { migrateToLatest } from "../database/migrate";

const env = loadEnv();
const logger = pino({ level: env.LOG_LEVEL });
const db = createDatabase(
  env.DATABASE_ENGINE === "postgres"
    ? { engine: "postgres", url: env.DATABASE_URL, preparedStatements: env.DATABASE_PREPARED_STATEMENTS }
    : { engine: "sqlite", sqlitePath: env.SQLITE_PATH },
);
try {
  const applied = await migrateToLatest(db);
  logger.info({ applied, database: env.DATABASE_ENGINE }, applied.length ? "migrated" : "already up to date");
} finally {
  await db.destroy();
}
