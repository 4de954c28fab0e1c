import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { NodeSqliteDialect } from "./node-sqlite-dialect";

// The driver keeps statements prepared by SQL text (issue 13); these hold it to what preparing each
// query afresh gave.
describe("NodeSqliteDialect's prepared statements", () => {
  let db: Kysely<any>;
  afterEach(async () => {
    await db.destroy();
  });

  it("gives each execution its own parameters and current rows", async () => {
    db = new Kysely<any>({ dialect: new NodeSqliteDialect(() => new DatabaseSync(":memory:")) });
    await sql`create table note (id integer primary key, body text not null)`.execute(db);
    for (const body of ["one", "two", "three"]) await db.insertInto("note").values({ body }).execute();
    const find = (id: number) => db.selectFrom("note").select("body").where("id", "=", id).executeTakeFirst();
    expect(await find(1)).toEqual({ body: "one" });
    expect(await find(3)).toEqual({ body: "three" });
    await db.updateTable("note").set({ body: "uno" }).where("id", "=", 1).execute();
    expect(await find(1)).toEqual({ body: "uno" });
    expect(await find(4)).toBeUndefined();
    const { numDeletedRows } = await db.deleteFrom("note").where("id", ">", 1).executeTakeFirst();
    expect(numDeletedRows).toBe(2n);
    expect(await db.selectFrom("note").selectAll().execute()).toEqual([{ id: 1, body: "uno" }]);
  });

  it("follows schema changes after a statement was prepared", async () => {
    db = new Kysely<any>({ dialect: new NodeSqliteDialect(() => new DatabaseSync(":memory:")) });
    await sql`create table note (id integer primary key, body text not null)`.execute(db);
    await db.insertInto("note").values({ body: "one" }).execute();
    const all = () => db.selectFrom("note").selectAll().execute();
    expect(await all()).toEqual([{ id: 1, body: "one" }]);
    await sql`alter table note add column pinned integer not null default 0`.execute(db);
    expect(await all()).toEqual([{ id: 1, body: "one", pinned: 0 }]);
    await sql`drop table note`.execute(db);
    await sql`create table note (id integer primary key, title text)`.execute(db);
    expect(await all()).toEqual([]);
  });

  it("stays correct past the number of statements it keeps", async () => {
    db = new Kysely<any>({ dialect: new NodeSqliteDialect(() => new DatabaseSync(":memory:")) });
    // 600 distinct texts (more than are kept), then the first ones again.
    for (let round = 0; round < 2; round++) {
      for (let n = 0; n < 600; n += 7) {
        const { rows } = await sql<{ v: number }>`select ${sql.lit(n)} + ${n} as v`.execute(db);
        expect(rows).toEqual([{ v: 2 * n }]);
      }
    }
  });

  it("gives plain objects with the statement's columns in order; a repeated name keeps its last value", async () => {
    db = new Kysely<any>({ dialect: new NodeSqliteDialect(() => new DatabaseSync(":memory:")) });
    const { rows } = await sql<Record<string, unknown>>`select 1 as a, 'x' as b, null as c, 2 as a`.execute(db);
    expect(rows).toEqual([{ a: 2, b: "x", c: null }]);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(Object.keys(rows[0]!)).toEqual(["a", "b", "c"]);
    expect(JSON.stringify(rows[0])).toBe('{"a":2,"b":"x","c":null}');
  });

  it("names the columns of a statement whose table another connection changed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipos-dialect-"));
    const file = path.join(dir, "site.db");
    const other = new DatabaseSync(file);
    try {
      db = new Kysely<any>({ dialect: new NodeSqliteDialect(() => new DatabaseSync(file)) });
      await sql`create table note (id integer primary key, body text not null)`.execute(db);
      await db.insertInto("note").values({ body: "one" }).execute();
      const all = () => db.selectFrom("note").selectAll().execute();
      expect(await all()).toEqual([{ id: 1, body: "one" }]);
      other.exec("alter table note add column pinned integer not null default 1");
      expect(await all()).toEqual([{ id: 1, body: "one", pinned: 1 }]);
    } finally {
      other.close();
      await db.destroy();
      db = new Kysely<any>({ dialect: new NodeSqliteDialect(() => new DatabaseSync(":memory:")) });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names the columns again after this connection changes the schema, even when their number stays", async () => {
    db = new Kysely<any>({ dialect: new NodeSqliteDialect(() => new DatabaseSync(":memory:")) });
    await sql`create table note (id integer primary key, body text)`.execute(db);
    await db.insertInto("note").values({ body: "one" }).execute();
    const all = () => db.selectFrom("note").selectAll().execute();
    expect(await all()).toEqual([{ id: 1, body: "one" }]);
    await sql`drop table note`.execute(db);
    await sql`create table note (id integer primary key, title text)`.execute(db);
    await db.insertInto("note").values({ title: "renamed" }).execute();
    expect(await all()).toEqual([{ id: 1, title: "renamed" }]);
  });
});
