import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { AVATAR_MISSING, removeAvatar, setAvatar } from "~/.server/domain/accounts/avatar-service";
import { exportMemberData } from "~/.server/domain/accounts/data-export";
import { deleteAccount } from "~/.server/domain/accounts/settings-service";
import { mediaAccess } from "~/.server/domain/forge/media-access";
import { IMAGE_REFUSED, IMAGE_UNREADABLE, imageDecodes, TOO_MANY_PIXELS } from "~/.server/media/image-upload";
import { hit } from "~/.server/rate-limit";
import { IMAGE_DECODE_LIMIT } from "~/lib/limits";
import { avatarFileName, AVATAR_SIZES } from "~/lib/media";
import { tooManyImagesMessage } from "~/.server/domain/forge/creation-service";
import { member } from "../factories";
import { gifBomb, jpegWithMetadata, pixelBomb, png, truncatedJpeg } from "../factories/media";
import { testSiteForFile } from "./file-site";
import { ENGINE, rowCount } from "./test-services";

/** Members' pictures (issue 32, ADR 0072): stored, replaced, removed and refused through the service. */

const site = testSiteForFile();
const db = () => site.services.db;
const avatarOf = async (viewer: Viewer) => (await db().selectFrom("member").select("avatar").where("id", "=", viewer.id).executeTakeFirstOrThrow()).avatar;
const filesOf = (base: string) => AVATAR_SIZES.map((size) => avatarFileName(base, size));
const mediaCount = () => rowCount(db(), "media");
const decodeHits = async (viewer: Viewer) =>
  (await db().selectFrom("rate_limit_hit").select("id").where("key", "=", `image-decode:member:${viewer.id}`).execute()).length;

/** A real PNG whose header says `width` × `height` pixels, in a few dozen bytes. */
async function pngClaiming(width: number, height: number) {
  const bytes = await pixelBomb();
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

describe(`members' pictures on ${ENGINE}`, () => {
  it("stores a photo as three WebP squares of 48, 96 and 256 pixels without any of its metadata", async () => {
    const viewer = await member(db());
    const set = await setAvatar(site.services, viewer, await jpegWithMetadata(400, 300));
    expect(set.ok).toBe(true);
    const base = await avatarOf(viewer);
    expect(base).toMatch(/^[0-9a-f]{32}$/);
    for (const [i, name] of filesOf(base!).entries()) {
      const stored = (await site.services.media.get(name))!;
      expect(stored.contentType).toBe("image/webp");
      const meta = await sharp(stored.data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["webp", AVATAR_SIZES[i], AVATAR_SIZES[i]]);
      expect([meta.exif, meta.xmp, meta.icc, meta.comments]).toEqual([undefined, undefined, undefined, undefined]);
      const owner = await db().selectFrom("media").select("owner_id").where("name", "=", name).executeTakeFirstOrThrow();
      expect(owner.owner_id).toBe(viewer.id);
      // Everyone may fetch a current picture.
      expect(await mediaAccess(db(), name, null)).toBe("public");
    }
  });

  it("replacing the picture deletes the previous one's files in the same change", async () => {
    const viewer = await member(db());
    expect((await setAvatar(site.services, viewer, await png(300, 200))).ok).toBe(true);
    const first = (await avatarOf(viewer))!;
    const media = await mediaCount();
    expect((await setAvatar(site.services, viewer, await png(120, 400, "#225588"))).ok).toBe(true);
    const second = (await avatarOf(viewer))!;
    expect(second).not.toBe(first);
    expect(await mediaCount()).toBe(media);
    for (const name of filesOf(first)) {
      expect(await site.services.media.head(name)).toBeUndefined();
      expect(await mediaAccess(db(), name, null)).toBe("none");
    }
    for (const name of filesOf(second)) expect(await site.services.media.head(name)).toBeDefined();
  });

  it("removing the picture brings the initials back and deletes its files; removing none changes nothing", async () => {
    const viewer = await member(db());
    expect((await setAvatar(site.services, viewer, await png())).ok).toBe(true);
    const base = (await avatarOf(viewer))!;
    const media = await mediaCount();
    expect(await removeAvatar(site.services, viewer)).toEqual({ ok: true, value: null });
    expect(await avatarOf(viewer)).toBeNull();
    expect(await mediaCount()).toBe(media - 3);
    for (const name of filesOf(base)) expect(await mediaAccess(db(), name, null)).toBe("none");
    expect(await removeAvatar(site.services, viewer)).toEqual({ ok: true, value: null });
    expect(await mediaCount()).toBe(media - 3);
  });

  it("refuses what is no image, too many pixels, a GIF bomb and a broken file, changing nothing; only the broken file is decoded", async () => {
    const viewer = await member(db());
    expect((await setAvatar(site.services, viewer, await png())).ok).toBe(true);
    const base = await avatarOf(viewer);
    const media = await mediaCount();
    const cases: [string, Buffer | undefined, string, number][] = [
      ["no file", undefined, AVATAR_MISSING, 0],
      ["HTML bytes", Buffer.from("<!doctype html><script>alert(1)</script>"), IMAGE_REFUSED, 0],
      ["a PDF", Buffer.from("%PDF-1.4\n%%EOF\n"), IMAGE_REFUSED, 0],
      ["a 48-megapixel PNG", await pngClaiming(8000, 6000), TOO_MANY_PIXELS, 0],
      ["a 3.6-gigapixel PNG", await pixelBomb(), TOO_MANY_PIXELS, 0],
      ["a GIF bomb", await gifBomb(), TOO_MANY_PIXELS, 0],
      ["a truncated JPEG", await truncatedJpeg(), IMAGE_UNREADABLE, 1],
    ];
    for (const [what, bytes, message, decoded] of cases) {
      const decodes = imageDecodes();
      const hits = await decodeHits(viewer);
      const started = Date.now();
      expect(await setAvatar(site.services, viewer, bytes), what).toEqual({ ok: false, status: 400, errors: { avatar: message } });
      expect(Date.now() - started, what).toBeLessThan(2000);
      expect(imageDecodes() - decodes, what).toBe(decoded);
      // A decode costs the member's image budget, whatever it finds; a refusal from the header costs nothing.
      expect((await decodeHits(viewer)) - hits, what).toBe(decoded);
    }
    expect(await avatarOf(viewer)).toBe(base);
    expect(await mediaCount()).toBe(media);
  });

  it("counts each picture against the member's hourly image budget, as the Forge's images", async () => {
    const viewer = await member(db());
    for (let i = 0; i < IMAGE_DECODE_LIMIT.max; i++) await hit(db(), [{ key: `image-decode:member:${viewer.id}`, ...IMAGE_DECODE_LIMIT }]);
    const decodes = imageDecodes();
    const refused = await setAvatar(site.services, viewer, await png());
    expect(refused).toEqual({ ok: false, status: 429, errors: { avatar: tooManyImagesMessage(60) } });
    expect(imageDecodes()).toBe(decodes);
    expect(await avatarOf(viewer)).toBeNull();
  });

  it("two uploads at once leave one picture and no other files behind", async () => {
    const viewer = await member(db());
    const media = await mediaCount();
    const results = await Promise.all([setAvatar(site.services, viewer, await png(80, 80)), setAvatar(site.services, viewer, await png(90, 90, "#123456"))]);
    for (const r of results) expect(r.ok).toBe(true);
    expect(await mediaCount()).toBe(media + 3);
    expect(await site.services.media.head(avatarFileName((await avatarOf(viewer))!, 48))).toBeDefined();
  });

  it("is in the member's data export, and a deleted account's picture is gone with its files", async () => {
    const viewer = await member(db());
    const { auth } = site.services;
    const email = `pictured-${Date.now()}@example.org`;
    const joined = await auth.api.signUpEmail({
      body: { name: "Pia Pictured", email, password: "Secret123", handle: `pia-${Date.now()}` },
      returnHeaders: true,
    });
    const id = joined.response.user.id;
    const pia: Viewer = { id, name: "Pia Pictured", email, handle: "pia", role: "member", avatar: null };
    expect((await setAvatar(site.services, pia, await png())).ok).toBe(true);
    const base = (await avatarOf(pia))!;
    expect((await exportMemberData(db(), id))!.profile.picture).toBe(`/media/${base}-avatar256.webp`);
    expect((await exportMemberData(db(), viewer.id))!.profile.picture).toBeNull();

    const cookie = joined.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const deleted = await deleteAccount(site.services, pia, { currentPassword: "Secret123" }, new Headers({ cookie }));
    expect(deleted.ok).toBe(true);
    expect(await avatarOf(pia)).toBeNull();
    for (const name of filesOf(base)) expect(await site.services.media.head(name)).toBeUndefined();
  });
});
