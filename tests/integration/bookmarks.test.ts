import { describe, expect, it } from "vitest";
import { bookmarksPage, viewerBookmarks } from "~/.server/domain/bookmarks/bookmark-read-model";
import { remindBookmarks } from "~/.server/domain/bookmarks/bookmark-reminders";
import { addBookmark, BOOKMARK_MESSAGES, removeBookmark, saveBookmark } from "~/.server/domain/bookmarks/bookmark-service";
import { deleteForumPost, moderate, postReply } from "~/.server/domain/forum/forum-service";
import { searchResults } from "~/.server/domain/search/search-read-model";
import { BOOKMARKS_MAX } from "~/lib/limits";
import { discussion, member, question } from "../factories";
import { ENGINE } from "./test-services";
import { moderatorForFile, ok, testSiteForFile } from "./file-site";

const site = testSiteForFile();
const moderator = moderatorForFile(site);

const db = () => site.services.db;
const rowsOf = (memberId: string) => db().selectFrom("bookmark").selectAll().where("member_id", "=", memberId).orderBy("id").execute();
const DAY = 24 * 60 * 60 * 1000;

describe(`bookmarks on ${ENGINE}`, () => {
  it("keeps any post the member can read once, lets it go, and lists it with where it is", async () => {
    const reader = await member(db());
    const d = await discussion(site.services, { title: "Stillness in the city" });
    const reply = ok(await postReply(site.services, await member(db()), d.id, { body: "Try the library.", submissionKey: crypto.randomUUID() }));
    const q = await question(site.services, { title: "How long to hold a plank?" });

    expect(ok(await addBookmark(site.services, reader, { kind: "reply", id: reply.id }))).toEqual({ added: true });
    expect(ok(await addBookmark(site.services, reader, { kind: "reply", id: reply.id }))).toEqual({ added: false });
    ok(await addBookmark(site.services, reader, { kind: "question", id: q.id }));
    expect(await rowsOf(reader.id)).toHaveLength(2);
    expect(
      await viewerBookmarks(db(), reader, [
        { kind: "reply", id: reply.id },
        { kind: "discussion", id: d.id },
      ]),
    ).toEqual([`reply:${reply.id}`]);

    const page = await bookmarksPage(db(), reader, null);
    expect(page.items.map((b) => [b.kindLabel, b.place?.title, b.place?.url])).toEqual([
      ["Question", "How long to hold a plank?", `/council/${q.id}`],
      ["Reply", "Stillness in the city", `/${d.section}/${d.topicId}/${d.id}-${d.slug}${reply.id > 1 ? `?after=${reply.id - 1}` : ""}#reply-${reply.id}`],
    ]);

    ok(await removeBookmark(site.services, reader, { kind: "question", id: q.id }));
    expect((await rowsOf(reader.id)).map((b) => b.kind)).toEqual(["reply"]);
  });

  it("refuses a post that is not there for the member: missing, deleted, or hidden unless a moderator", async () => {
    const reader = await member(db());
    expect(await addBookmark(site.services, reader, { kind: "discussion", id: 2_147_483_647 })).toMatchObject({ ok: false, status: 404 });
    const gone = await discussion(site.services);
    ok(await deleteForumPost(site.services, gone.author, "discussion", gone.id));
    expect(await addBookmark(site.services, reader, { kind: "discussion", id: gone.id })).toMatchObject({ ok: false, status: 404 });
    const hidden = await discussion(site.services);
    ok(await moderate(site.services, moderator, "hide", "discussion", hidden.id));
    expect(await addBookmark(site.services, reader, { kind: "discussion", id: hidden.id })).toMatchObject({
      ok: false,
      status: 404,
      errors: { form: "Post not found" },
    });
    ok(await addBookmark(site.services, moderator, { kind: "discussion", id: hidden.id }));
    expect(await rowsOf(reader.id)).toEqual([]);

    // A post hidden after it was kept stays on the list, without its title or link.
    const later = await discussion(site.services, { title: "Soon hidden" });
    ok(await addBookmark(site.services, reader, { kind: "discussion", id: later.id }));
    ok(await moderate(site.services, moderator, "hide", "discussion", later.id));
    expect((await bookmarksPage(db(), reader, null)).items[0]).toMatchObject({ kind: "discussion", postId: later.id, place: null });
  });

  it("reminds the member on the day they chose, once, at 9:00 their time, and refuses a day gone by", async () => {
    const reader = await member(db());
    await db().updateTable("member").set({ time_zone: "Asia/Tokyo" }).where("id", "=", reader.id).execute();
    const d = await discussion(site.services, { title: "Read this again" });
    ok(await addBookmark(site.services, reader, { kind: "discussion", id: d.id }));
    const [row] = await rowsOf(reader.id);
    const now = new Date("2030-03-10T12:00:00Z");

    expect(await saveBookmark(site.services, reader, row!.id, { note: "x", remindOn: "2030-03-10" }, now)).toMatchObject({
      ok: false,
      status: 400,
      errors: { remindOn: BOOKMARK_MESSAGES.past },
    });
    ok(await saveBookmark(site.services, reader, row!.id, { note: "For the weekend", remindOn: "2030-03-12" }, now));
    const saved = (await rowsOf(reader.id))[0]!;
    expect(saved.note).toBe("For the weekend");
    // 9:00 in Tokyo is midnight UTC.
    expect(new Date(saved.remind_at!).toISOString()).toBe("2030-03-12T00:00:00.000Z");
    // Another member cannot touch it.
    expect(await saveBookmark(site.services, await member(db()), row!.id, { note: "", remindOn: "" }, now)).toMatchObject({ ok: false, status: 404 });

    const notificationsOf = () => db().selectFrom("notification").select(["kind", "title", "url"]).where("member_id", "=", reader.id).execute();
    expect((await remindBookmarks(db(), new Date("2030-03-11T23:59:00Z"))).reminded).toBe(0);
    expect((await remindBookmarks(db(), new Date("2030-03-12T00:01:00Z"))).told).toEqual([reader.id]);
    expect((await remindBookmarks(db(), new Date("2030-03-12T00:02:00Z"))).reminded).toBe(0);
    expect(await notificationsOf()).toEqual([{ kind: "bookmark", title: "Read this again", url: `/${d.section}/${d.topicId}/${d.id}-${d.slug}` }]);
    expect((await bookmarksPage(db(), reader, null)).items[0]).toMatchObject({ note: "For the weekend", remindOn: "2030-03-12", reminded: true });

    // A post deleted before its day: the reminder is dropped, nobody is told.
    const other = await discussion(site.services, { title: "Gone by then" });
    ok(await addBookmark(site.services, reader, { kind: "discussion", id: other.id }));
    const second = (await rowsOf(reader.id)).find((b) => b.post_id === other.id)!;
    ok(await saveBookmark(site.services, reader, second.id, { note: "", remindOn: "2030-04-01" }, now));
    ok(await deleteForumPost(site.services, other.author, "discussion", other.id));
    expect((await remindBookmarks(db(), new Date("2030-04-02T00:00:00Z"))).reminded).toBe(0);
    expect(await notificationsOf()).toHaveLength(1);
  });

  it("search can look in the member's bookmarks alone", async () => {
    const reader = await member(db());
    const kept = await discussion(site.services, { title: "Kept", body: "Quandril practice." });
    await discussion(site.services, { title: "Not kept", body: "Quandril too." });
    ok(await addBookmark(site.services, reader, { kind: "discussion", id: kept.id }));
    const filters = { kind: null, section: null, virtue: null, author: null, sort: "relevance" as const };
    const everywhere = await searchResults(db(), reader, "quandril", { ...filters, bookmarks: false }, null);
    const mine = await searchResults(db(), reader, "quandril", { ...filters, bookmarks: true }, null);
    expect(everywhere.status === "found" && everywhere.results).toHaveLength(2);
    expect(mine.status === "found" && mine.results.map((r) => r.key)).toEqual([`discussion:${kept.id}`]);
    expect(await searchResults(db(), null, "quandril", { ...filters, bookmarks: true }, null)).toEqual({ status: "sign-in" });
  });

  it(`50 parallel bookmarks near the cap of ${BOOKMARKS_MAX} keep it exactly, as the burst limit holds too`, async () => {
    const reader = await member(db());
    // Kept earlier: rows written directly, as many as the cap less ten.
    const at = new Date(Date.now() - DAY).toISOString();
    const filler = Array.from({ length: BOOKMARKS_MAX - 10 }, (_, i) => ({
      member_id: reader.id,
      kind: "reply" as const,
      post_id: 1_000_000 + i,
      created_at: at,
    }));
    for (let i = 0; i < filler.length; i += 500)
      await db()
        .insertInto("bookmark")
        .values(filler.slice(i, i + 500))
        .execute();
    const d = await discussion(site.services);
    const replies = [];
    for (let i = 0; i < 50; i++) {
      replies.push(ok(await postReply(site.services, await member(db()), d.id, { body: `Reply ${i}`, submissionKey: crypto.randomUUID() })).id);
    }
    const results = await Promise.all(replies.map((id) => addBookmark(site.services, reader, { kind: "reply", id })));
    const statuses = results.map((r) => (r.ok ? 200 : r.status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(await rowsOf(reader.id)).toHaveLength(BOOKMARKS_MAX);
  });
});
