import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "~/.server/db/connect";
import { ENGINE, PG_URL } from "./test-services";

/*
 * Statements kept prepared (ADR 0032 on SQLite, ADR 0079 on PostgreSQL): the same text is parsed
 * once and run many times, and still answers rightly after another connection changed a table's
 * columns under it, as a migration run by a newer instance does.
 */

if (ENGINE === "postgres")
  describe("named prepared statements on PostgreSQL", () => {
    const schema = `t_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const open = (preparedStatements?: boolean) =>
      createDatabase({ engine: "postgres", url: PG_URL, schema, poolSize: 1, preparedStatements }) as unknown as Kysely<any>;
    const opened: Kysely<any>[] = [];
    const database = (preparedStatements?: boolean) => {
      const db = open(preparedStatements);
      opened.push(db);
      return db;
    };
    /** Another process's connection, as a migration by another instance would be. */
    let other: Kysely<any>;

    beforeAll(async () => {
      const admin = createDatabase({ engine: "postgres", url: PG_URL, poolSize: 1 });
      await sql`create schema ${sql.id(schema)}`.execute(admin);
      await admin.destroy();
      other = database();
    });
    afterAll(async () => {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(other);
      for (const db of opened) await db.destroy();
    });

    /** The statements this connection holds prepared with this text (a pool of one: one connection). */
    const preparedWith = async (db: Kysely<any>, text: string) =>
      (await sql<{ name: string }>`select name from pg_prepared_statements where statement = ${text}`.execute(db)).rows.map((row) => row.name);

    it("runs a statement by name, prepared once on the connection whatever the values", async () => {
      const db = database();
      const square = (n: number) => sql<{ n: number }>`select ${n}::int * ${n}::int as n`.execute(db);
      expect((await square(3)).rows).toEqual([{ n: 9 }]);
      expect((await square(4)).rows).toEqual([{ n: 16 }]);
      expect((await square(5)).rows).toEqual([{ n: 25 }]);
      const names = await preparedWith(db, "select $1::int * $2::int as n");
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/^ipos_[0-9a-f]{8}_\d+_\d+$/);
    });

    it("sends statements unnamed when told to (a pooler that cannot keep them)", async () => {
      const db = database(false);
      expect((await sql<{ n: number }>`select ${7}::int + 1 as n`.execute(db)).rows).toEqual([{ n: 8 }]);
      expect(await preparedWith(db, "select $1::int + 1 as n")).toEqual([]);
    });

    it("answers with a table's new columns after another connection changed them, preparing the statement again", async () => {
      await sql`create table outdated_plan (a int)`.execute(other);
      await sql`insert into outdated_plan values (1)`.execute(other);
      const db = database();
      const everything = () => sql`select * from outdated_plan`.execute(db);
      expect((await everything()).rows).toEqual([{ a: 1 }]);
      // Kept as it was, the plan would now fail with "cached plan must not change result type".
      await sql`alter table outdated_plan add column b int not null default 2`.execute(other);
      expect((await everything()).rows).toEqual([{ a: 1, b: 2 }]);
      expect((await everything()).rows).toEqual([{ a: 1, b: 2 }]);
    });

    it("inside a transaction an outdated plan fails that transaction, and the next one finds the new columns", async () => {
      await sql`create table outdated_in_transaction (a int)`.execute(other);
      await sql`insert into outdated_in_transaction values (1)`.execute(other);
      const db = database();
      const inTransaction = () => db.transaction().execute((trx) => sql`select * from outdated_in_transaction`.execute(trx));
      expect((await inTransaction()).rows).toEqual([{ a: 1 }]);
      await sql`alter table outdated_in_transaction add column c text not null default 'new'`.execute(other);
      await expect(inTransaction()).rejects.toMatchObject({ code: "0A000" });
      expect((await inTransaction()).rows).toEqual([{ a: 1, c: "new" }]);
    });
  });
else
  describe("statements kept prepared on SQLite", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-prepared-"));
    const file = path.join(dir, "site.db");
    let db: Kysely<any>;
    let other: Kysely<any>;
    beforeAll(() => {
      db = createDatabase({ engine: "sqlite", sqlitePath: file }) as unknown as Kysely<any>;
      other = createDatabase({ engine: "sqlite", sqlitePath: file }) as unknown as Kysely<any>;
    });
    afterAll(async () => {
      await db.destroy();
      await other.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("answers with a table's new columns after another connection changed them", async () => {
      await sql`create table outdated_plan (a int)`.execute(other);
      await sql`insert into outdated_plan values (1)`.execute(other);
      const everything = () => sql`select * from outdated_plan`.execute(db);
      expect((await everything()).rows).toEqual([{ a: 1 }]);
      await sql`alter table outdated_plan add column b int not null default 2`.execute(other);
      expect((await everything()).rows).toEqual([{ a: 1, b: 2 }]);
    });
  });
