import { describe, expect, it } from "vitest";
import { excerptOf } from "~/lib/text";
import { databaseBefore, seedAuthorAndTopic } from "./database-before";
import { ENGINE } from "./test-services";

// A database as it stood before the excerpt columns, so the migration meets rows it must fill.
const BEFORE = "2026-11-21-0005-council";
const old = databaseBefore(BEFORE);

describe(`the post-excerpts migration on ${ENGINE}`, () => {
  it("fills the excerpt of every existing discussion and question, as the app makes them", async () => {
    const { db } = old;
    const at = new Date().toISOString();
    await seedAuthorAndTopic(db, at, "monastery");
    const bodies = [
      "Sit **ten** minutes. See [my notes](https://example.org/n) and ![the view](/v.png).",
      "```\ncode only\n```\n# Heading _here_",
      "![".repeat(10_000),
      "[a](".repeat(5_000),
      "word ".repeat(100),
    ];
    // More rows than one batch of the backfill, so the batches join up without a gap.
    const discussions = Array.from({ length: 1_010 }, (_, i) => ({
      topic_id: "t",
      author_id: "m",
      title: `Discussion ${i}`,
      slug: `discussion-${i}`,
      body: i < bodies.length ? bodies[i] : `Body **${i}**`,
      created_at: at,
      last_activity_at: at,
    }));
    for (let i = 0; i < discussions.length; i += 200)
      await db
        .insertInto("discussion")
        .values(discussions.slice(i, i + 200))
        .execute();
    await db
      .insertInto("question")
      .values(bodies.map((body, i) => ({ author_id: "m", title: `Question ${i}`, body, created_at: at, last_activity_at: at })))
      .execute();

    const { error, results } = await old.migrateToLatest();
    if (error) throw error;
    expect(results?.map((r) => [r.migrationName, r.status])).toContainEqual(["2026-11-22-0001-post-excerpts", "Success"]);

    for (const table of ["discussion", "question"]) {
      const rows: { body: string; excerpt: string }[] = await db.selectFrom(table).select(["body", "excerpt"]).orderBy("id").execute();
      expect(rows.length).toBe(table === "discussion" ? 1_010 : bodies.length);
      for (const row of rows) expect(row.excerpt).toBe(excerptOf(row.body));
    }
    const first = await db.selectFrom("discussion").select("excerpt").orderBy("id").executeTakeFirstOrThrow();
    expect(first.excerpt).toBe("Sit ten minutes. See my notes and the view.");
  });
});
