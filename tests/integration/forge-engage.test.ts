import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import {
  commentOnCreation,
  deleteComment,
  deleteCreation,
  editComment,
  moderateForge,
  OWN_LIKE_MESSAGE,
  setLiked,
} from "~/.server/domain/forge/forge-engagement";
import { creationFeed, creationWithComments, listCategories } from "~/.server/domain/forge/forge-read-model";
import { recordXpEvent } from "~/.server/domain/progression/progression-service";
import { ledgerXp } from "./ledger-xp";
import { decodeActivityCursor, pageRequest } from "~/.server/pagination";
import { DAILY_VOTE_XP_CAP, XP } from "~/lib/xp";
import { COMMENT_MAX, commentSchema } from "~/schemas/creation-comment";
import * as z from "zod/mini";
import { creation, member } from "../factories";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

const site = testSiteForFile();
const key = () => crypto.randomUUID();
const xpOf = async (m: Viewer) => ledgerXp(site.services.db, m.id);
const likeCount = async (id: number) =>
  Number((await site.services.db.selectFrom("creation").select("like_count").where("id", "=", id).executeTakeFirstOrThrow()).like_count);
const likeRows = async (id: number) => (await site.services.db.selectFrom("creation_like").select("member_id").where("creation_id", "=", id).execute()).length;
/** An acolyte (50 XP) may like. */
const acolyte = () => member(site.services.db, { xp: 60 });

describe(`Forge likes and comments on ${ENGINE}`, () => {
  it("a like adds one to the count and 1 XP to the author; liking again changes nothing; unliking takes both back", async () => {
    const author = await member(site.services.db);
    const fan = await acolyte();
    const c = (await creation(site.services.db, { author })).id;

    expect(await setLiked(site.services, fan, c, true)).toEqual({ ok: true, value: { liked: true, likes: 1 } });
    expect(await setLiked(site.services, fan, c, true)).toEqual({ ok: true, value: { liked: true, likes: 1 } });
    expect(await likeCount(c)).toBe(1);
    expect(await xpOf(author)).toBe(XP["creation.liked"]);
    expect((await creationWithComments(site.services.db, c, fan))?.creation.liked).toBe(true);

    expect(await setLiked(site.services, fan, c, false)).toEqual({ ok: true, value: { liked: false, likes: 0 } });
    expect(await likeCount(c)).toBe(0);
    expect(await xpOf(author)).toBe(0);
    // Unliking what was never liked: nothing to take back, nothing changes.
    expect(await setLiked(site.services, fan, c, false)).toEqual({ ok: true, value: { liked: false, likes: 0 } });
    expect(await likeCount(c)).toBe(0);
    expect(await xpOf(author)).toBe(0);
  });

  it("refuses one's own work and a hidden, deleted or missing creation; an initiate's like counts but gives no XP", async () => {
    const author = await member(site.services.db, { xp: 100 });
    const c = (await creation(site.services.db, { author })).id;
    expect(await setLiked(site.services, author, c, true)).toEqual({ ok: false, status: 403, errors: { form: OWN_LIKE_MESSAGE } });
    // From the first day (issue 31): the like counts, and gives the author nothing.
    const initiate = await member(site.services.db, { xp: 0 });
    expect(await setLiked(site.services, initiate, c, true)).toEqual({ ok: true, value: { liked: true, likes: 1 } });
    expect(await xpOf(author)).toBe(100);
    expect(await setLiked(site.services, initiate, c, false)).toEqual({ ok: true, value: { liked: false, likes: 0 } });
    expect(await xpOf(author)).toBe(100);

    const fan = await acolyte();
    const moderator = await member(site.services.db, { role: "moderator" });
    expect((await moderateForge(site.services, moderator, "creation", c, true)).ok).toBe(true);
    expect(await setLiked(site.services, fan, c, true)).toMatchObject({ ok: false, status: 404 });
    expect((await commentOnCreation(site.services, fan, c, { body: "Hidden?", submissionKey: key() })).ok).toBe(false);
    expect((await moderateForge(site.services, moderator, "creation", c, false)).ok).toBe(true);
    expect((await setLiked(site.services, fan, c, true)).ok).toBe(true);

    const gone = (await creation(site.services.db, { author })).id;
    expect((await deleteCreation(site.services, author, gone)).ok).toBe(true);
    expect(await setLiked(site.services, fan, gone, true)).toMatchObject({ ok: false, status: 404 });
    expect(await setLiked(site.services, fan, 2_147_483_647, true)).toMatchObject({ ok: false, status: 404 });
    expect(await likeRows(gone)).toBe(0);
  });

  it("50 simultaneous likes from one member count once", async () => {
    const author = await member(site.services.db);
    const fan = await acolyte();
    const c = (await creation(site.services.db, { author })).id;
    const results = await Promise.all(Array.from({ length: 50 }, () => setLiked(site.services, fan, c, true)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await likeCount(c)).toBe(1);
    expect(await likeRows(c)).toBe(1);
    expect(await xpOf(author)).toBe(XP["creation.liked"]);
  });

  it("50 simultaneous likes from 50 members: like_count exactly 50, and the author's XP stops at the daily cap", async () => {
    const now = new Date("2031-03-04T12:00:00.000Z");
    const author = await member(site.services.db);
    // Helpful votes already paid 10 today: the likes have 40 XP of the day's 50 left.
    await recordXpEvent(site.services.db, {
      member_id: author.id,
      kind: "answer.helpful",
      subject_id: "earlier",
      points: 10,
      created_at: "2031-03-04T08:00:00.000Z",
    });
    const c = (await creation(site.services.db, { author })).id;
    const fans = await Promise.all(Array.from({ length: 50 }, () => acolyte()));
    const results = await Promise.all(fans.map((f) => setLiked(site.services, f, c, true, now)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await likeCount(c)).toBe(50);
    expect(await likeRows(c)).toBe(50);
    expect(await xpOf(author)).toBe(DAILY_VOTE_XP_CAP);
    // Deleting the creation takes back every like's XP, capped or not.
    expect((await deleteCreation(site.services, author, c, now)).ok).toBe(true);
    expect(await xpOf(author)).toBe(10);
  });

  it("comments: counted, edited and deleted by their author only; the schema holds them to 1-2,000 characters", async () => {
    const author = await member(site.services.db);
    const commenter = await member(site.services.db);
    const other = await member(site.services.db);
    const c = (await creation(site.services.db, { author })).id;

    expect(z.safeParse(commentSchema, { body: "  ", submissionKey: key() }).success).toBe(false);
    expect(z.safeParse(commentSchema, { body: "x".repeat(COMMENT_MAX + 1), submissionKey: key() }).success).toBe(false);
    expect(z.safeParse(commentSchema, { body: "x".repeat(COMMENT_MAX), submissionKey: key() }).success).toBe(true);

    const k = key();
    const [first, again] = await Promise.all([
      commentOnCreation(site.services, commenter, c, { body: "Lovely **work**.", submissionKey: k }),
      commentOnCreation(site.services, commenter, c, { body: "Lovely **work**.", submissionKey: k }),
    ]);
    if (!first.ok || !again.ok) throw new Error("comment refused");
    expect(again.value.id).toBe(first.value.id);
    let page = await creationWithComments(site.services.db, c, commenter);
    expect(page?.creation.comments).toBe(1);
    expect(page?.comments[0].html).toContain("<strong>work</strong>");
    expect(page?.comments[0].mine).toBe(true);
    // Comments earn no XP (PRODUCT.md §3).
    expect(await xpOf(commenter)).toBe(0);

    expect(await editComment(site.services, other, first.value.id, { body: "Mine now" })).toMatchObject({ ok: false, status: 403 });
    expect(await deleteComment(site.services, other, first.value.id)).toMatchObject({ ok: false, status: 403 });
    expect(await editComment(site.services, commenter, first.value.id, { body: "Lovely work, edited." })).toEqual({ ok: true, value: { creationId: c } });
    page = await creationWithComments(site.services.db, c);
    expect(page?.comments[0]).toMatchObject({ edited: true, html: "<p>Lovely work, edited.</p>\n" });

    expect(await deleteComment(site.services, commenter, first.value.id)).toEqual({ ok: true, value: { creationId: c } });
    page = await creationWithComments(site.services.db, c);
    expect(page?.creation.comments).toBe(0);
    expect(page?.comments[0]).toMatchObject({ deleted: true, html: null });
    expect(await deleteComment(site.services, commenter, first.value.id)).toMatchObject({ ok: false, status: 404 });
  });

  it("the author deletes their creation (others may not); a moderator hides and restores it, and the tiles count what shows", async () => {
    const author = await member(site.services.db);
    const stranger = await member(site.services.db);
    const moderator = await member(site.services.db, { role: "moderator" });
    const c = (await creation(site.services.db, { author, type: "projects" })).id;
    const count = async () => (await listCategories(site.services.db)).find((t) => t.id === "projects")!.count;
    const before = await count();

    expect(await deleteCreation(site.services, stranger, c)).toMatchObject({ ok: false, status: 403 });
    expect(await moderateForge(site.services, stranger, "creation", c, true)).toMatchObject({ ok: false, status: 403 });
    expect((await moderateForge(site.services, moderator, "creation", c, true)).ok).toBe(true);
    expect(await count()).toBe(before - 1);
    expect(await creationWithComments(site.services.db, c, stranger)).toBeNull();
    expect((await creationWithComments(site.services.db, c, moderator))?.creation.hidden).toBe(true);
    expect((await moderateForge(site.services, moderator, "creation", c, false)).ok).toBe(true);
    expect(await count()).toBe(before);

    expect((await deleteCreation(site.services, author, c)).ok).toBe(true);
    expect(await count()).toBe(before - 1);
    expect(await creationWithComments(site.services.db, c, author)).toBeNull();
  });

  it("a moderator hides a comment (it leaves the count and the page) and restores it; the moderator still sees it", async () => {
    const author = await member(site.services.db);
    const commenter = await member(site.services.db);
    const moderator = await member(site.services.db, { role: "moderator" });
    const c = (await creation(site.services.db, { author })).id;
    const posted = await commentOnCreation(site.services, commenter, c, { body: "Off-topic noise", submissionKey: key() });
    if (!posted.ok) throw new Error("comment refused");
    expect(await moderateForge(site.services, commenter, "comment", posted.value.id, true)).toMatchObject({ ok: false, status: 403 });
    expect((await moderateForge(site.services, moderator, "comment", posted.value.id, true)).ok).toBe(true);
    let page = await creationWithComments(site.services.db, c, author);
    expect(page?.creation.comments).toBe(0);
    expect(page?.comments).toEqual([]);
    expect((await creationWithComments(site.services.db, c, moderator))?.comments[0]).toMatchObject({ id: posted.value.id, hidden: true });
    expect((await moderateForge(site.services, moderator, "comment", posted.value.id, false)).ok).toBe(true);
    page = await creationWithComments(site.services.db, c, author);
    expect(page?.creation.comments).toBe(1);
    expect(page?.comments[0]).toMatchObject({ id: posted.value.id, hidden: false });
  });

  it("the list pages newest first by (created_at, id), filtered by type, without gaps or repeats", async () => {
    const author = await member(site.services.db);
    const at = new Date("2031-05-01T10:00:00.000Z");
    const ids: number[] = [];
    // Two share a timestamp: the id breaks the tie.
    for (const minutes of [0, 1, 2, 2, 3]) {
      ids.push((await creation(site.services.db, { author, type: "music", at: new Date(at.getTime() + minutes * 60_000) })).id);
    }
    await creation(site.services.db, { author, type: "writing", at: new Date(at.getTime() + 10 * 60_000) });
    const seen: number[] = [];
    let request = pageRequest(new URLSearchParams(), decodeActivityCursor);
    for (let i = 0; i < 10 && request.ok; i++) {
      const feed = await creationFeed(site.services.db, "music", request.value, 2);
      seen.push(...feed.creations.filter((c) => ids.includes(c.id)).map((c) => c.id));
      expect(feed.creations.every((c) => c.type === "music")).toBe(true);
      if (!feed.older) break;
      request = pageRequest(new URLSearchParams(feed.older), decodeActivityCursor);
    }
    expect(seen).toEqual([ids[4], ids[3], ids[2], ids[1], ids[0]]);
    expect(pageRequest(new URLSearchParams("after=not-a-cursor"), decodeActivityCursor).ok).toBe(false);
  });
});
