import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { OWN_LIKE_MESSAGE } from "~/.server/domain/forge/forge-engagement";
import { moveCreationCount } from "~/.server/domain/forge/forge-repository";
import { recordXpEvent } from "~/.server/domain/progression/progression-service";
import { ledgerXp } from "./ledger-xp";
import { DAILY_VOTE_XP_CAP, XP } from "~/lib/xp";
import { creation } from "../factories";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp();

async function joinAs(name: string, xp = 0) {
  const { cookie, email, id } = await joinOverHttp(web, name, { xp });
  const viewer: Viewer = { id, name, email, handle: id, role: "member", avatar: null };
  return { cookie, viewer, id };
}
const key = () => crypto.randomUUID();
const xpOf = async (id: string) => ledgerXp(web.site.services.db, id);
const likeCount = async (id: number) =>
  Number((await web.site.services.db.selectFrom("creation").select("like_count").where("id", "=", id).executeTakeFirstOrThrow()).like_count);

describe(`Forge likes and comments over HTTP on ${ENGINE}`, { timeout: 120_000 }, () => {
  it("a member likes and unlikes with a plain form post; the page shows the pressed button and the count", async () => {
    const author = await joinAs("Ada Author");
    const fan = await joinAs("Finn Fan", 60);
    const c = (await creation(web.site.services.db, { author: author.viewer, title: "A quiet ink study" })).id;
    const path = `/forge/${c}`;

    const liked = await web.http.post(path, { intent: "like" }, { cookie: fan.cookie });
    expect(liked.status).toBe(200);
    const html = await readable(liked);
    expect(html).toMatch(/<button[^>]*aria-pressed="true"[^>]*>.*?Unlike<\/button>/s);
    expect(html).toContain("1 like");
    // The same post again, 50 times at once (a reload, a stuck button, a script): still one like.
    const again = await Promise.all(Array.from({ length: 50 }, () => web.http.post(path, { intent: "like" }, { cookie: fan.cookie })));
    expect(again.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await likeCount(c)).toBe(1);
    expect(await xpOf(author.id)).toBe(XP["creation.liked"]);

    const unliked = await readable(await web.http.post(path, { intent: "unlike" }, { cookie: fan.cookie }));
    expect(unliked).toMatch(/<button[^>]*aria-pressed="false"[^>]*>.*?Like<\/button>/s);
    expect(unliked).toContain("0 likes");
    expect(await xpOf(author.id)).toBe(0);
    expect((await web.http.post(path, { intent: "unlike" }, { cookie: fan.cookie })).status).toBe(200);
    expect(await likeCount(c)).toBe(0);
  });

  it("refuses likes on one's own work with the reason; an initiate likes from the first day", async () => {
    const author = await joinAs("Otto Own", 100);
    const initiate = await joinAs("Ines Initiate");
    const c = (await creation(web.site.services.db, { author: author.viewer })).id;
    const own = await web.http.post(`/forge/${c}`, { intent: "like" }, { cookie: author.cookie });
    expect(own.status).toBe(403);
    expect(await readable(own)).toContain(OWN_LIKE_MESSAGE);
    expect(await likeCount(c)).toBe(0);
    const page = await readable(await web.http.get(`/forge/${c}`, { cookie: initiate.cookie }));
    expect(page).not.toContain("unlocks at the Acolyte rank");
    expect(page).toContain('aria-pressed="false"');
    const first = await web.http.post(`/forge/${c}`, { intent: "like" }, { cookie: initiate.cookie });
    expect(first.status).toBe(200);
    expect(await likeCount(c)).toBe(1);
    expect(await xpOf(author.id)).toBe(100);
    // A visitor is sent to sign in.
    const visitor = await web.http.post(`/forge/${c}`, { intent: "like" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/signin/);
  });

  it("comments: empty and 2,001 characters are refused with the message; others cannot edit or delete; the author can", async () => {
    const author = await joinAs("Cora Creator");
    const commenter = await joinAs("Cal Commenter");
    const other = await joinAs("Oz Other");
    const c = (await creation(web.site.services.db, { author: author.viewer })).id;
    const path = `/forge/${c}`;

    const empty = await web.http.post(path, { intent: "comment", body: "  ", submissionKey: key() }, { cookie: commenter.cookie });
    expect(empty.status).toBe(400);
    expect(await readable(empty)).toContain("Write something before posting");
    const long = await web.http.post(path, { intent: "comment", body: "x".repeat(2001), submissionKey: key() }, { cookie: commenter.cookie });
    expect(long.status).toBe(400);
    expect(await readable(long)).toContain("Comment cannot exceed 2,000 characters");

    const posted = await web.http.post(path, { intent: "comment", body: "The *brushwork* sings.", submissionKey: key() }, { cookie: commenter.cookie });
    expect(posted.status).toBe(302);
    const commentId = posted.headers.get("location")!.split("#comment-")[1];
    let page = await readable(await web.http.get(path));
    expect(page).toContain("The <em>brushwork</em> sings.");
    expect(page).toContain("1 comment");

    const edit = await web.http.post(path, { intent: "edit-comment", commentId, body: "Taken over" }, { cookie: other.cookie });
    expect(edit.status).toBe(403);
    expect(await readable(edit)).toContain("You can only change your own posts.");
    expect((await web.http.post(path, { intent: "delete-comment", commentId }, { cookie: other.cookie })).status).toBe(403);
    expect((await web.http.post(path, { intent: "edit-comment", commentId: "abc", body: "x" }, { cookie: commenter.cookie })).status).toBe(400);
    expect((await web.http.post(path, { intent: "edit-comment", commentId: "99999999999", body: "x" }, { cookie: commenter.cookie })).status).toBe(400);

    expect((await web.http.post(path, { intent: "edit-comment", commentId, body: "The brushwork sings, truly." }, { cookie: commenter.cookie })).status).toBe(
      302,
    );
    expect((await web.http.post(path, { intent: "delete-comment", commentId }, { cookie: commenter.cookie })).status).toBe(302);
    page = await readable(await web.http.get(path));
    expect(page).toContain("[deleted]");
    expect(page).toContain("0 comments");
  });

  it("ids out of range, unknown filters, malformed cursors and hidden or deleted creations never answer 500", async () => {
    const author = await joinAs("Hana Hidden");
    const fan = await joinAs("Flo Fan", 60);
    for (const bad of ["0", "-1", "1e3", "007", "99999999999", "2147483648", "abc"]) {
      expect((await web.http.get(`/forge/${bad}`)).status, bad).toBe(404);
      expect((await web.http.post(`/forge/${bad}`, { intent: "like" }, { cookie: fan.cookie })).status, bad).toBe(404);
    }
    expect((await web.http.get("/forge?type=sculpture")).status).toBe(200);
    expect((await web.http.get("/forge?type=music")).status).toBe(200);
    expect((await web.http.get("/forge?after=not-a-cursor")).status).toBe(400);
    expect((await web.http.get("/forge?after=WyJ4IiwxXQ")).status).toBe(400);
    expect((await web.http.get("/forge?after=x&before=y")).status).toBe(400);

    const hidden = (await creation(web.site.services.db, { author: author.viewer })).id;
    await web.site.services.db.updateTable("creation").set({ hidden_at: new Date().toISOString() }).where("id", "=", hidden).execute();
    await moveCreationCount(web.site.services.db, hidden, -1); // what hiding through the pipeline does
    expect((await web.http.post(`/forge/${hidden}`, { intent: "like" }, { cookie: fan.cookie })).status).toBe(404);
    const deleted = (await creation(web.site.services.db, { author: author.viewer })).id;
    expect((await web.http.post(`/forge/${deleted}`, { intent: "delete" }, { cookie: fan.cookie })).status).toBe(403);
    const gone = await web.http.post(`/forge/${deleted}`, { intent: "delete" }, { cookie: author.cookie });
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toBe("/forge");
    expect((await web.http.post(`/forge/${deleted}`, { intent: "like" }, { cookie: fan.cookie })).status).toBe(404);
    expect((await web.http.get(`/forge/${deleted}`)).status).toBe(404);
    expect(await likeCount(hidden)).toBe(0);
  });

  it("the list: tiles filter with live counts, thumbnails carry their size and load lazily below the first row", async () => {
    const author = await joinAs("Tess Thumbs");
    const db = web.site.services.db;
    const ids: number[] = [];
    const names: string[] = [];
    for (let i = 0; i < 5; i++) {
      const name = `${String(i)
        .repeat(32)
        .slice(0, 32)
        .replace(/[^0-9a-f]/g, "a")}-thumb.webp`;
      names.push(name);
      await db
        .insertInto("media")
        .values({
          name,
          content_type: "image/webp",
          byte_size: 3,
          sha256: "0".repeat(64),
          width: 320,
          height: 240,
          data: new Uint8Array([1, 2, 3]),
          owner_id: author.id,
        })
        .execute();
      const c = await creation(db, { author: author.viewer, type: "art", at: new Date(Date.now() + 60_000 * (i + 1)) });
      await db.updateTable("creation").set({ image_thumb_name: name }).where("id", "=", c.id).execute();
      ids.push(c.id);
    }
    const html = await readable(await web.http.get("/forge?type=art"));
    // This test's own thumbnails (the demo's Visual Art has a drawn image of its own).
    const images = [...html.matchAll(/<img[^>]*>/g)].map((m) => m[0]).filter((tag) => names.some((name) => tag.includes(name)));
    expect(images).toHaveLength(5);
    for (const tag of images) expect(tag).toMatch(/width="320"[^>]*height="240"/);
    expect(images.slice(0, 3).every((tag) => tag.includes('loading="eager"'))).toBe(true);
    expect(images.slice(3).every((tag) => tag.includes('loading="lazy"'))).toBe(true);
    const art = await db
      .selectFrom("creation")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("type", "=", "art")
      .where("deleted_at", "is", null)
      .where("hidden_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(html).toMatch(new RegExp(`Visual Art</span><span[^>]*>${Number(art.n)} creations</span>`));
  });

  it(`50 members like one creation at the same moment: like_count exactly 50, the author's XP capped at ${DAILY_VOTE_XP_CAP} a day`, async () => {
    const author = await joinAs("Pia Popular");
    const c = (await creation(web.site.services.db, { author: author.viewer })).id;
    // Helpful votes already paid 20 today: 30 of the day's 50 are left for the likes.
    await recordXpEvent(web.site.services.db, {
      member_id: author.id,
      kind: "answer.helpful",
      subject_id: "earlier",
      points: 20,
      created_at: new Date().toISOString(),
    });
    const fans = [];
    for (let i = 0; i < 50; i++) fans.push(await joinAs(`Fan ${i}`, 60));
    const responses = await Promise.all(fans.map((f) => web.http.post(`/forge/${c}`, { intent: "like" }, { cookie: f.cookie })));
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await likeCount(c)).toBe(50);
    expect(await xpOf(author.id)).toBe(DAILY_VOTE_XP_CAP);
    expect(await readable(await web.http.get(`/forge/${c}`))).toContain("50 likes");
  });
});
