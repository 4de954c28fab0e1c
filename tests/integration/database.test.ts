import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordXpEvent } from "~/.server/domain/progression/progression-service";
import { xpTotals } from "~/.server/domain/progression/xp-repository";
import { createTestSite, ENGINE, type TestSite } from "./test-services";
import { pendingMigrations } from "../../database/migrate";

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
  await site.services.db
    .insertInto("member")
    .values({
      id: "m1",
      name: "Test Member",
      email: "m1@example.org",
      email_verified: false,
      image: null,
      created_at: new Date(),
      updated_at: new Date(),
      handle: "m1",
      bio: null,
      interests: "[]",
      role: "member",
    })
    .execute();
});
afterAll(async () => {
  await site.destroy();
});

describe(`database layer on ${ENGINE}`, () => {
  it("counts the migrations a database lacks (the readiness check): none when migrated, one when its row is gone", async () => {
    const db = site.services.db as unknown as Kysely<any>;
    expect(await pendingMigrations(db)).toBe(0);
    const newest = await db.selectFrom("kysely_migration").selectAll().orderBy("name", "desc").executeTakeFirstOrThrow();
    await db.deleteFrom("kysely_migration").where("name", "=", newest.name).execute();
    try {
      expect(await pendingMigrations(db)).toBe(1);
    } finally {
      await db.insertInto("kysely_migration").values(newest).execute();
    }
    expect(await pendingMigrations(db)).toBe(0);
  });

  it("rolls a failed transaction back completely", async () => {
    const { db } = site.services;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto("xp_event")
          .values({ member_id: "m1", kind: "rollback", subject_id: "1", points: 5, created_at: new Date().toISOString() })
          .execute();
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const rows = await db.selectFrom("xp_event").select("id").where("kind", "=", "rollback").execute();
    expect(rows).toHaveLength(0);
  });

  it("never counts an award twice for the same member, kind and subject", async () => {
    const { db } = site.services;
    const event = { member_id: "m1", kind: "discussion.started", subject_id: "42", points: 5, created_at: new Date().toISOString() };
    expect(await recordXpEvent(db, event)).toBe(true);
    expect(await recordXpEvent(db, event)).toBe(false);
    expect((await xpTotals(db, ["m1"])).get("m1")).toBe(5);
  });

  // SQLite serialises writers with BEGIN IMMEDIATE; PostgreSQL needs the row lock.
  it("runs 40 concurrent read-modify-write transactions without losing one", async () => {
    const { db } = site.services;
    await db
      .insertInto("topic")
      .values({
        id: "counter",
        section: "monastery",
        title: "Counter",
        description: "",
        created_by: null,
        created_at: new Date().toISOString(),
        last_activity_at: new Date().toISOString(),
      })
      .execute();
    await Promise.all(
      Array.from({ length: 40 }, () =>
        db.transaction().execute(async (trx) => {
          const row = await trx
            .selectFrom("topic")
            .select("member_count")
            .where("id", "=", "counter")
            .$if(ENGINE === "postgres", (q) => q.forUpdate())
            .executeTakeFirstOrThrow();
          await trx
            .updateTable("topic")
            .set({ member_count: Number(row.member_count) + 1 })
            .where("id", "=", "counter")
            .execute();
        }),
      ),
    );
    const row = await db.selectFrom("topic").select("member_count").where("id", "=", "counter").executeTakeFirstOrThrow();
    expect(Number(row.member_count)).toBe(40);
  });

  it("stores and returns booleans and timestamps", async () => {
    const { db } = site.services;
    const member = await db.selectFrom("member").select(["email_verified", "created_at"]).where("id", "=", "m1").executeTakeFirstOrThrow();
    expect(Boolean(member.email_verified)).toBe(false);
    expect(Number.isNaN(new Date(member.created_at).getTime())).toBe(false);
  });
});
