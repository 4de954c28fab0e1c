import { describe, expect, it } from "vitest";
import { renderMarkdown } from "~/.server/markdown";
import { databaseBefore, seedAuthorAndTopic } from "./database-before";
import { ENGINE } from "./test-services";

// A database as it stood before the reply buckets, the rendered-everywhere backfill and the Forge's category counts.
const BEFORE = "2026-11-22-0100-member-standing";
const old = databaseBefore(BEFORE);

describe(`the write-time migrations (ADR 0027) on ${ENGINE}`, () => {
  it("render every body and event description not yet rendered, and count visible replies per discussion and hour and visible creations per category", async () => {
    const { db } = old;
    const at = "2026-11-01T10:15:00.000Z";
    await seedAuthorAndTopic(db, at, "battlefield");
    const bodies = ["Sit **ten** minutes, see [notes](https://example.org/n).", "# Heading _here_", "![".repeat(2_000)];
    const d = await db
      .insertInto("discussion")
      .values({ topic_id: "t", author_id: "m", title: "D", slug: "d", body: bodies[0], excerpt: "x", created_at: at, last_activity_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("discussion")
      .values({
        topic_id: "t",
        author_id: "m",
        title: "Kept",
        slug: "kept",
        body: "new",
        body_html: "<p>kept as written</p>",
        excerpt: "x",
        created_at: at,
        last_activity_at: at,
      })
      .execute();
    const replies = [
      { created_at: "2026-11-01T10:20:00.000Z" },
      { created_at: "2026-11-01T10:59:59.999Z" },
      { created_at: "2026-11-01T11:00:00.000Z" },
      { created_at: "2026-11-01T11:30:00.000Z", deleted_at: "2026-11-02T00:00:00.000Z" },
      { created_at: "2026-11-01T11:40:00.000Z", hidden_at: "2026-11-02T00:00:00.000Z" },
      { created_at: "2026-11-03T08:00:00.000Z" },
    ];
    for (const [i, r] of replies.entries()) {
      await db
        .insertInto("reply")
        .values({ discussion_id: d.id, author_id: "m", body: bodies[i % bodies.length], ...r })
        .execute();
    }
    await db
      .insertInto("event")
      .values({
        title: "E",
        description: "Bring *tea*.",
        path: "monk",
        starts_at: at,
        ends_at: at,
        time_zone: "UTC",
        online_url: null,
        place: "Here",
        capacity: 5,
        host_id: "m",
        created_at: at,
        updated_at: at,
      })
      .execute();

    const creations = [
      { type: "writing" },
      { type: "writing" },
      { type: "writing", deleted_at: "2026-11-02T00:00:00.000Z" },
      { type: "art" },
      { type: "art", hidden_at: "2026-11-02T00:00:00.000Z" },
      { type: "projects" },
    ];
    for (const c of creations) {
      await db
        .insertInto("creation")
        .values({ author_id: "m", title: "C", description: "d", body: "b", created_at: at, ...c })
        .execute();
    }

    const { error } = await old.migrateToLatest();
    if (error) throw error;

    for (const table of ["discussion", "reply"]) {
      const rows: { body: string; body_html: string }[] = await db.selectFrom(table).select(["body", "body_html"]).orderBy("id").execute();
      for (const row of rows) expect(row.body_html).toBe(row.body === "new" ? "<p>kept as written</p>" : renderMarkdown(row.body));
    }
    const event = await db.selectFrom("event").select("description_html").executeTakeFirstOrThrow();
    expect(event.description_html).toBe(renderMarkdown("Bring *tea*."));
    const hours = await db.selectFrom("reply_hour").select(["discussion_id", "section", "hour", "replies"]).orderBy("hour").execute();
    expect(
      hours.map((h: { discussion_id: number; section: string; hour: string; replies: number }) => [
        Number(h.discussion_id),
        h.section,
        h.hour,
        Number(h.replies),
      ]),
    ).toEqual([
      [Number(d.id), "battlefield", "2026-11-01T10", 2],
      [Number(d.id), "battlefield", "2026-11-01T11", 1],
      [Number(d.id), "battlefield", "2026-11-03T08", 1],
    ]);
    // Each Forge category's visible creations (ADR 0036), a row for every category, even an empty one.
    const counts = await db.selectFrom("creation_type_count").select(["type", "creations"]).orderBy("type").execute();
    expect(counts.map((c: { type: string; creations: number }) => [c.type, Number(c.creations)])).toEqual([
      ["art", 1],
      ["music", 0],
      ["projects", 1],
      ["writing", 2],
    ]);
  });
});
