import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { postReply } from "~/.server/domain/forum/forum-service";
import { sweepUnattachedPostImages, UNATTACHED_IMAGE_MS } from "~/.server/domain/writing/post-image-service";
import { IMAGE_REFUSED, TOO_MANY_PIXELS } from "~/.server/media/image-upload";
import { hit } from "~/.server/rate-limit";
import { IMAGE_DECODE_LIMIT } from "~/lib/limits";
import { POST_IMAGES_MAX, POST_IMAGES_MAX_MESSAGE } from "~/lib/post-images";
import { NEW_MEMBER_LINKS_MESSAGE, NEW_MEMBER_LIMITS_RANK } from "~/lib/privileges";
import { rankById } from "~/lib/ranks";
import { discussion } from "../factories";
import { COMMENT_MARK, gifBomb, GPS_MARK, htmlAsPng, jpegWithMetadata, pixelBomb, png, XMP_MARK } from "../factories/media";
import { ENGINE, rowCount } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

/** Pictures in posts (issue 32, ADR 0071): the upload route, the stored files, the Markdown and the sweep. */

const web = siteOverHttp({ demo: false });
const db = () => web.site.services.db;

function upload(cookie: string, bytes: Uint8Array, fileName = "form.jpg") {
  const body = new FormData();
  body.append("image", new Blob([bytes as Uint8Array<ArrayBuffer>]), fileName);
  return fetch(`${web.http.base}/uploads/images`, { method: "POST", headers: { origin: web.http.base, cookie }, body });
}

async function viewerOf(joined: { id: string }): Promise<Viewer> {
  const row = await db().selectFrom("member").select(["id", "name", "email", "handle", "role"]).where("id", "=", joined.id).executeTakeFirstOrThrow();
  return row as Viewer;
}

const mediaCount = () => rowCount(db(), "media");
const MARKDOWN = /^!\[([^|\]]*)\|(\d+)x(\d+)\]\((\/media\/[0-9a-f]{32}-display\.webp)\)$/;

describe(`pictures in posts on ${ENGINE}`, () => {
  it("refuses visitors, other methods and what is not an image, and changes nothing", async () => {
    const before = await mediaCount();
    expect((await upload("", await png())).status).toBe(401);
    expect((await web.http.get("/uploads/images")).status).toBe(405);
    const member = await joinOverHttp(web, "Una Uploader");
    const html = await upload(member.cookie, htmlAsPng(), "page.png");
    expect(html.status).toBe(400);
    expect(((await html.json()) as { error: string }).error).toBe(IMAGE_REFUSED);
    // A 60,000 × 60,000 PNG header in a few dozen bytes: refused from its header, never decoded.
    const bomb = await upload(member.cookie, await pixelBomb(), "bomb.png");
    expect(bomb.status).toBe(400);
    expect(((await bomb.json()) as { error: string }).error).toBe(TOO_MANY_PIXELS);
    // A GIF whose screen says 65,535 × 65,535 pixels: refused from its header too.
    const gif = await upload(member.cookie, await gifBomb(), "bomb.gif");
    expect(gif.status).toBe(400);
    expect(((await gif.json()) as { error: string }).error).toBe(TOO_MANY_PIXELS);
    const pathName = await upload(member.cookie, await png(), "../../x.png");
    expect(pathName.status).toBe(400);
    expect(((await pathName.json()) as { error: string }).error).toBe("The file name is not allowed.");
    const large = await upload(member.cookie, new Uint8Array(5 * 1024 * 1024 + 1), "huge.png");
    expect(large.status).toBe(413);
    expect(await mediaCount()).toBe(before);
  });

  it("stores a photo as three WebP files without its metadata and answers Markdown with the display size", async () => {
    const member = await joinOverHttp(web, "Pia Photographer");
    // A reader's kept page: an upload that no post holds yet changes nothing it shows.
    await web.http.get("/council");
    expect((await web.http.get("/council")).headers.get("x-page-cache")).toBe("hit");
    const res = await upload(member.cookie, await jpegWithMetadata(2400, 1800), "My [garden]|photo.jpg");
    expect(res.status).toBe(201);
    expect((await web.http.get("/council")).headers.get("x-page-cache")).toBe("hit");
    const answer = (await res.json()) as { markdown: string; url: string; width: number; height: number };
    const [, alt, width, height, url] = MARKDOWN.exec(answer.markdown) ?? [];
    expect([alt, width, height, url]).toEqual(["My garden photo", "1600", "1200", answer.url]);

    const served = await web.http.get(url!);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height, meta.exif, meta.xmp, meta.icc]).toEqual([1600, 1200, undefined, undefined, undefined]);
    for (const mark of [GPS_MARK, XMP_MARK, COMMENT_MARK, "SecretCam"]) expect(bytes.includes(mark)).toBe(false);
    const row = await db().selectFrom("post_image").selectAll().where("display_name", "=", url!.slice("/media/".length)).executeTakeFirstOrThrow();
    expect([row.width, row.height, row.owner_id, row.attached_at]).toEqual([1600, 1200, member.id, null]);
    // The full and thumbnail sizes are served too.
    expect((await web.http.get(`/media/${row.full_name}`)).status).toBe(200);
    expect((await web.http.get(`/media/${row.thumb_name}`)).status).toBe(200);
  });

  it("shows the picture in a reply at its size, lazily, and the sweep keeps it while deleting an untaken one", async () => {
    const author = await joinOverHttp(web, "Rae Replier", { xp: rankById(NEW_MEMBER_LIMITS_RANK).minXp });
    const taken = ((await (await upload(author.cookie, await png(800, 600), "form.png")).json()) as { markdown: string }).markdown;
    const untaken = ((await (await upload(author.cookie, await png(300, 200), "left.png")).json()) as { markdown: string; url: string }).url;
    const d = await discussion(web.site.services, { title: "Morning form, with a photo" });
    const posted = await postReply(web.site.services, await viewerOf(author), d.id, {
      body: `My stance today:\n\n${taken}`,
      submissionKey: crypto.randomUUID(),
    });
    expect(posted.ok).toBe(true);
    const page = await readable(await web.http.get(`/${d.section}/${d.topicId}/${d.id}-${d.slug}`));
    const src = MARKDOWN.exec(taken)![4]!;
    expect(page).toContain(`<img src="${src}" alt="form" width="800" height="600" loading="lazy" decoding="async">`);

    const later = new Date(Date.now() + UNATTACHED_IMAGE_MS + 60_000);
    expect(await sweepUnattachedPostImages(web.site.services, later)).toBeGreaterThanOrEqual(1);
    expect((await web.http.get(src)).status).toBe(200);
    expect((await web.http.get(untaken)).status).toBe(404);
    expect(await db().selectFrom("media").select("name").where("name", "=", untaken.slice("/media/".length)).executeTakeFirst()).toBeUndefined();
  });

  it("holds a post to its images: one for an initiate, ten for anyone", async () => {
    const d = await discussion(web.site.services, { title: "A gallery of stances" });
    const image = (n: number) => `![stance ${n}|10x10](/media/${n.toString(16).padStart(32, "0")}-display.webp)`;
    const initiate = await joinOverHttp(web, "Ivo Initiate");
    const two = await postReply(web.site.services, await viewerOf(initiate), d.id, { body: `${image(1)}\n${image(2)}`, submissionKey: crypto.randomUUID() });
    expect(two).toMatchObject({ ok: false, status: 400, errors: { body: NEW_MEMBER_LINKS_MESSAGE } });
    const acolyte = await joinOverHttp(web, "Ada Acolyte", { xp: rankById(NEW_MEMBER_LIMITS_RANK).minXp });
    const many = Array.from({ length: POST_IMAGES_MAX + 1 }, (_, n) => image(n + 1)).join("\n");
    const eleven = await postReply(web.site.services, await viewerOf(acolyte), d.id, { body: many, submissionKey: crypto.randomUUID() });
    expect(eleven).toMatchObject({ ok: false, status: 400, errors: { body: POST_IMAGES_MAX_MESSAGE } });
    const ten = await postReply(web.site.services, await viewerOf(acolyte), d.id, {
      body: many.split("\n").slice(0, POST_IMAGES_MAX).join("\n"),
      submissionKey: crypto.randomUUID(),
    });
    expect(ten.ok).toBe(true);
  });

  it("counts each upload against the member's hourly image budget, shared with the Forge", async () => {
    const member = await joinOverHttp(web, "Hal Hurried");
    for (let i = 0; i < IMAGE_DECODE_LIMIT.max; i++) await hit(db(), [{ key: `image-decode:member:${member.id}`, ...IMAGE_DECODE_LIMIT }]);
    const before = await mediaCount();
    const res = await upload(member.cookie, await png());
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: string }).error).toMatch(/^You have added too many images in the last hour\. Try again in \d+ minutes?\.$/);
    expect(await mediaCount()).toBe(before);
  });
});
