import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { postReply } from "~/.server/domain/forum/forum-service";
import { saveNotificationSettings } from "~/.server/domain/notifications/notification-service";
import { IMAGE_REFUSED, TOO_MANY_PIXELS } from "~/.server/media/image-upload";
import { discussion } from "../factories";
import { jpegWithMetadata, pixelBomb, png } from "../factories/media";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp, viewerOf } from "./site-join";

/**
 * Members' pictures over HTTP (issue 32, ADR 0072): the settings' multipart form without
 * JavaScript, the pictures on the pages that show the member (kept pages dropped by the change),
 * the /media route, and bad uploads answered on the form.
 */

vi.setConfig({ testTimeout: 90_000 });

const web = siteOverHttp({ demo: false });
const db = () => web.site.services.db;

/** A member who joined through the form; the session cookie alone, as a browser sends it once the welcome toast is shown. */
async function join(name: string) {
  const joined = await joinOverHttp(web, name);
  const cookie = joined.cookie
    .split("; ")
    .filter((pair) => !pair.startsWith("ipos_flash="))
    .join("; ");
  return { ...joined, cookie };
}

function upload(cookie: string, file: Uint8Array | null, fileName = "me.jpg") {
  const body = new FormData();
  body.append("avatar", file ? new Blob([file as Uint8Array<ArrayBuffer>]) : new Blob([]), file ? fileName : "");
  return fetch(web.http.base + "/settings?intent=avatar", { method: "POST", redirect: "manual", headers: { origin: web.http.base, cookie }, body });
}
const remove = (cookie: string) => web.http.post("/settings?intent=remove-avatar", {}, { cookie });
const avatarOf = async (id: string) => (await db().selectFrom("member").select("avatar").where("id", "=", id).executeTakeFirstOrThrow()).avatar;

async function get(path: string, cookie?: string) {
  const res = await web.http.get(path, cookie ? { cookie } : {});
  return { status: res.status, cache: res.headers.get("x-page-cache"), html: await readable(res) };
}
/** Asked twice: the second answer comes from memory (a signed-in member's first view of a discussion records their reading, so it is made first). */
async function kept(path: string, cookie?: string) {
  if (cookie) await get(path, cookie);
  expect((await get(path, cookie)).status, path).toBe(200);
  const second = await get(path, cookie);
  expect(second.cache, `${path} asked again`).toBe("hit");
  return second.html;
}

/** The byline of the member's posts on a page: its picture's address, or null when it shows initials. */
function bylinePicture(html: string, handle: string) {
  const byline = html.split(`data-slot="byline" data-member="${handle}"`)[1];
  expect(byline, `a byline of ${handle}`).toBeDefined();
  const avatar = /^[^]*?(<img[^>]*data-slot="avatar"[^>]*>|<span[^>]*data-slot="avatar")/.exec(byline!)![1]!;
  return avatar.startsWith("<img") ? /src="([^"]+)"/.exec(avatar)![1]! : null;
}

describe(`members' pictures over HTTP on ${ENGINE}`, () => {
  it("sends a visitor's upload to sign in, storing nothing", async () => {
    const media = await db().selectFrom("media").select("name").execute();
    const res = await upload("", await png());
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/signin/);
    expect(await db().selectFrom("media").select("name").execute()).toEqual(media);
  });

  it("a member uploads a picture without JavaScript: it shows on their replies and in their header, and removing it brings the initials back", async () => {
    const ana = await join("Ana Pictured");
    const { handle } = await db().selectFrom("member").select("handle").where("id", "=", ana.id).executeTakeFirstOrThrow();
    const d = await discussion(web.site.services, { title: "Cold water at dawn" });
    const posted = await postReply(web.site.services, await viewerOf(web, ana.id), d.id, { body: "I tried it today.", submissionKey: crypto.randomUUID() });
    expect(posted.ok).toBe(true);
    const path = `/${d.section}/${d.topicId}/${d.id}-${d.slug}`;

    const settings = await get("/settings", ana.cookie);
    expect(settings.html).toMatch(/<form[^>]*action="\/settings\?intent=avatar"[^>]*enctype="multipart\/form-data"/i);
    expect(settings.html).not.toContain("Remove picture");
    // A reader's page and the member's own are kept, each showing the initials.
    expect(bylinePicture(await kept(path), handle)).toBeNull();
    expect(bylinePicture(await kept(path, ana.cookie), handle)).toBeNull();

    const saved = await upload(ana.cookie, await jpegWithMetadata(640, 480));
    expect(saved.status).toBe(200);
    expect(await readable(saved)).toContain("Your picture is saved.");
    const base = (await avatarOf(ana.id))!;
    expect(base).toMatch(/^[0-9a-f]{32}$/);

    // Both kept pages were dropped by the change, and show the picture now.
    for (const cookie of [undefined, ana.cookie]) {
      const page = await get(path, cookie);
      expect(page.cache, cookie ? "the member's page" : "a reader's page").not.toBe("hit");
      // The small box's two sizes: 48 pixels, and 96 for screens with two device pixels per CSS pixel.
      expect(bylinePicture(page.html, handle)).toBe(`/media/${base}-avatar48.webp`);
      expect(page.html).toContain(`srcSet="/media/${base}-avatar96.webp 2x"`);
    }
    // The member's header: the account menu's button holds the picture.
    expect((await get("/forge", ana.cookie)).html).toMatch(new RegExp(`aria-label="Account menu for Ana Pictured"><img[^>]*/media/${base}-avatar48\\.webp`));
    // The profile's large box takes 96 and 256.
    expect(await readable(await web.http.get(`/members/${handle}`))).toContain(`src="/media/${base}-avatar96.webp" srcSet="/media/${base}-avatar256.webp 2x"`);

    const served = await web.http.get(`/media/${base}-avatar256.webp`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("cache-control")).toContain("public");
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.width, meta.height, meta.exif]).toEqual([256, 256, undefined]);

    expect(await kept(path)).toContain(`/media/${base}-avatar48.webp`);
    const removed = await remove(ana.cookie);
    expect(removed.status).toBe(200);
    expect(await readable(removed)).toContain("Your picture is removed.");
    expect(await avatarOf(ana.id)).toBeNull();
    const after = await get(path);
    expect(after.cache).not.toBe("hit");
    expect(bylinePicture(after.html, handle)).toBeNull();
    expect((await web.http.get(`/media/${base}-avatar256.webp`)).status).toBe(404);
  });

  it("a moderator removes a member's picture from their profile; the member is told whatever their settings, others may not", async () => {
    const owner = await join("Pim Pictured");
    expect((await upload(owner.cookie, await png(200, 200), "me.png")).status).toBe(200);
    const { handle, avatar } = await db().selectFrom("member").select(["handle", "avatar"]).where("id", "=", owner.id).executeTakeFirstOrThrow();
    expect(avatar).not.toBeNull();
    // They hear no news of hidden posts; a moderator's decision about them comes all the same.
    await saveNotificationSettings(web.site.services, await viewerOf(web, owner.id), [{ kind: "moderation", inSite: false, byMail: false }]);

    // Another member sees no such control and is refused.
    const other = await join("Oda Onlooker");
    expect((await get(`/members/${handle}`, other.cookie)).html).not.toContain("Remove Picture");
    expect((await web.http.post(`/members/${handle}`, { intent: "remove-picture" }, { cookie: other.cookie })).status).toBe(403);
    expect(await avatarOf(owner.id)).toBe(avatar);

    const moderator = await join("Mo Moderator");
    await db().updateTable("member").set({ role: "moderator" }).where("id", "=", moderator.id).execute();
    expect((await get(`/members/${handle}`, moderator.cookie)).html).toContain("Remove Picture");
    expect((await web.http.post(`/members/${handle}`, { intent: "remove-picture" }, { cookie: moderator.cookie })).status).toBe(302);
    expect(await avatarOf(owner.id)).toBeNull();
    expect((await web.http.get(`/media/${avatar}-avatar96.webp`)).status).toBe(404);
    const told = await db().selectFrom("notification").select("kind").where("member_id", "=", owner.id).where("kind", "=", "moderation.picture").execute();
    expect(told).toHaveLength(1);
    expect((await get("/notifications", owner.cookie)).html).toContain("A moderator removed your profile picture");

    // Two moderators at once: one removes the new picture and tells, the other finds none.
    expect((await upload(owner.cookie, await png(200, 200), "again.png")).status).toBe(200);
    const second = await join("Mia Moderator");
    await db().updateTable("member").set({ role: "moderator" }).where("id", "=", second.id).execute();
    const statuses = await Promise.all(
      [moderator, second].map(async (m) => (await web.http.post(`/members/${handle}`, { intent: "remove-picture" }, { cookie: m.cookie })).status),
    );
    expect(statuses.sort()).toEqual([302, 404]);
    expect(await avatarOf(owner.id)).toBeNull();
    const toldTwice = await db().selectFrom("notification").select("id").where("member_id", "=", owner.id).where("kind", "=", "moderation.picture").execute();
    expect(toldTwice).toHaveLength(2);
  });

  it("answers bad uploads on the form, bound to the field, and changes nothing", async () => {
    const bo = await join("Bo Refused");
    expect((await upload(bo.cookie, await png())).status).toBe(200);
    const base = await avatarOf(bo.id);
    const media = (await db().selectFrom("media").select("name").execute()).length;
    const cases: [string, Uint8Array | null, string, number, string][] = [
      ["no file", null, "me.jpg", 400, "Choose a picture to upload."],
      ["bytes that are no image", Buffer.from("%PDF-1.4\n%%EOF\n"), "me.png", 400, IMAGE_REFUSED],
      ["a path for a name", await png(), "../../x.png", 400, "The file name is not allowed."],
      ["a pixel bomb", await pixelBomb(), "bomb.png", 400, TOO_MANY_PIXELS],
      ["over 5 MB", Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024)]), "big.png", 413, "The image is larger than 5 MB."],
    ];
    for (const [what, file, name, status, message] of cases) {
      const res = await upload(bo.cookie, file, name);
      expect(res.status, what).toBe(status);
      const html = await readable(res);
      expect(html, what).toContain(message);
      expect(html, what).toMatch(/<input[^>]*id="avatar"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*avatar-error/);
      expect(html, what).toMatch(new RegExp(`id="avatar-error"[^>]*>${message.replace(/[.()]/g, "\\$&")}<`));
    }
    expect(await avatarOf(bo.id)).toBe(base);
    expect((await db().selectFrom("media").select("name").execute()).length).toBe(media);
  });
});
