import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { afterAll, beforeAll } from "vitest";
import { migrations } from "../../database/migrations/index";
import { createDatabase } from "~/.server/db/connect";
import { ENGINE, holdingSchemaLock, PG_URL } from "./test-services";

/**
 * A database of its own (a PostgreSQL schema or a SQLite file) migrated up to and including
 * `migration`, for a test of the migrations after it: they meet rows written the old way. Set up
 * before the file's tests and dropped after them; read `db` and `migrator` inside a test.
 */
export function databaseBefore(migration: string) {
  const schema = `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-migration-"));
  const held = {} as { db: Kysely<any>; migrator: Migrator; migrateToLatest: () => ReturnType<Migrator["migrateToLatest"]> };
  // Under the schema lock on PostgreSQL: see holdingSchemaLock.
  const locked = <T>(work: () => Promise<T>) => (ENGINE === "postgres" ? holdingSchemaLock(PG_URL, work) : work());
  held.migrateToLatest = () => locked(() => held.migrator.migrateToLatest());
  const admin = async (statement: ReturnType<typeof sql>) => {
    const db = createDatabase({ engine: "postgres", url: PG_URL, poolSize: 1 });
    await statement.execute(db);
    await db.destroy();
  };

  beforeAll(async () => {
    if (ENGINE === "postgres") await admin(sql`create schema ${sql.id(schema)}`);
    held.db =
      ENGINE === "postgres"
        ? createDatabase({ engine: "postgres", url: PG_URL, schema, poolSize: 2 })
        : createDatabase({ engine: "sqlite", sqlitePath: path.join(dir, "site.db") });
    held.migrator = new Migrator({
      db: held.db,
      provider: { getMigrations: async () => migrations },
      ...(ENGINE === "postgres" ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await locked(() => held.migrator.migrateTo(migration));
    if (error) throw error;
  });
  afterAll(async () => {
    await held.db.destroy();
    await locked(async () => {
      if (ENGINE === "postgres") await admin(sql`drop schema if exists ${sql.id(schema)} cascade`);
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return held;
}

/**
 * Member "m" and their topic "t" in the old schema (the columns a member had then), so a migration
 * test's posts have an author and a place.
 */
export async function seedAuthorAndTopic(db: Kysely<any>, at: string, section: string) {
  await db
    .insertInto("member")
    .values({
      id: "m",
      name: "Member",
      email: "m@example.org",
      email_verified: false,
      image: null,
      created_at: at,
      updated_at: at,
      handle: "m",
      bio: null,
      interests: "[]",
      role: "member",
    })
    .execute();
  await db.insertInto("topic").values({ id: "t", section, title: "Topic", description: "", created_by: "m", created_at: at, last_activity_at: at }).execute();
}
