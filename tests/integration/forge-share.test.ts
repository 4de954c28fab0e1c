import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import {
  creationsLeftToday,
  editCreation,
  IMAGE_IN_PROGRESS,
  shareCreation,
  tooManyImagesMessage,
  type CreationFiles,
} from "~/.server/domain/forge/creation-service";
import { writeKey } from "~/.server/domain/outcome";
import { IMAGE_CONCURRENCY, IMAGE_QUEUE, IMAGES_BUSY, imageDecodes } from "~/.server/media/image-upload";
import { hit } from "~/.server/rate-limit";
import { IMAGE_DECODE_LIMIT, WRITE_LIMIT } from "~/lib/limits";
import { INITIATE_DAILY_POSTS_MESSAGE } from "~/lib/privileges";
import { deleteOwnPost, setPostHidden } from "~/.server/domain/posts/pipeline";
import { ledgerXp } from "./ledger-xp";
import type { CreationInput } from "~/schemas/forge";
import { insertDemoContent } from "~/.server/db/demo-content";
import { member as newMember } from "../factories";
import { htmlAsPng, jpegWithMetadata, pdf, pixelBomb, png, svg, truncatedJpeg, wav } from "../factories/media";
import { ENGINE, rowCount } from "./test-services";
import { testSiteForFile } from "./file-site";

/** Sharing and editing creations with their files (issue 10), through the posting pipeline. */

const site = testSiteForFile();
const key = () => crypto.randomUUID();
const member = (xp = 60, role: Viewer["role"] = "member") => newMember(site.services.db, { xp, role });
const xpOf = async (viewer: Viewer) => ledgerXp(site.services.db, viewer.id);
const input = (type: CreationInput["type"], extra: Partial<CreationInput> = {}): CreationInput & { submissionKey: string } => ({
  title: `A ${type} piece`,
  description: "Made this week.",
  type,
  body: "Some **words**.",
  submissionKey: key(),
  ...extra,
});
const share = (viewer: Viewer, type: CreationInput["type"], files: CreationFiles = {}, extra: Partial<CreationInput> = {}) =>
  shareCreation(site.services, viewer, input(type, extra), files);

const row = (id: number) => site.services.db.selectFrom("creation").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
/** Decodes recorded against the member's hourly image budget. */
const decodeHits = async (viewer: Viewer) =>
  (await site.services.db.selectFrom("rate_limit_hit").select("id").where("key", "=", `image-decode:member:${viewer.id}`).execute()).length;
const mediaCount = () => rowCount(site.services.db, "media");

describe(`sharing creations on ${ENGINE}`, () => {
  it("shares one of each type, stores the files under generated names and awards 10 XP each", async () => {
    const author = await member();
    const before = await xpOf(author);
    const writing = await share(author, "writing");
    const art = await share(author, "art", { image: await png(2400, 1200) });
    const music = await share(author, "music", { audio: wav() });
    const project = await share(author, "projects", {}, { linkUrl: "https://example.org/my-bench" });
    for (const r of [writing, art, music, project]) expect(r.ok).toBe(true);
    expect(await xpOf(author)).toBe(before + 40);

    const artRow = await row(art.ok ? art.value.id : 0);
    expect(artRow.body_html).toContain("<strong>words</strong>");
    expect(artRow.image_name).toMatch(/^[0-9a-f]{32}-full\.webp$/);
    const display = await site.services.media.head(artRow.image_display_name!);
    const thumb = await site.services.media.head(artRow.image_thumb_name!);
    expect([display?.width, display?.height, display?.contentType]).toEqual([1600, 800, "image/webp"]);
    expect([thumb?.width, thumb?.height]).toEqual([480, 240]);
    const stored = await site.services.media.get(artRow.image_display_name!);
    expect((await sharp(stored!.data).metadata()).width).toBe(1600);

    const musicRow = await row(music.ok ? music.value.id : 0);
    expect(musicRow.audio_name).toMatch(/^[0-9a-f]{32}\.wav$/);
    const audio = await site.services.media.get(musicRow.audio_name!);
    expect(Buffer.from(audio!.data).equals(wav())).toBe(true);
    expect(audio!.contentType).toBe("audio/wav");

    const projectRow = await row(project.ok ? project.value.id : 0);
    expect(projectRow.link_url).toBe("https://example.org/my-bench");
    expect(projectRow.image_name).toBeNull();
  });

  it("shares Visual Art, Music and a Project without a word: the file or the link is the work (issue 26)", async () => {
    const author = await member();
    const before = await xpOf(author);
    const art = await share(author, "art", { image: await png() }, { body: "", description: "" });
    const music = await share(author, "music", { audio: wav() }, { body: "" });
    const project = await share(author, "projects", {}, { body: "", linkUrl: "https://example.org/quiet-bench" });
    for (const r of [art, music, project]) expect(r.ok).toBe(true);
    const artRow = await row(art.ok ? art.value.id : 0);
    expect([artRow.body, artRow.body_html]).toEqual(["", ""]);
    expect(artRow.image_display_name).not.toBeNull();
    expect((await row(music.ok ? music.value.id : 0)).audio_name).not.toBeNull();
    expect(await xpOf(author)).toBe(before + 30);
    // Without text the image is still required: the message asks for it and says words are optional.
    const bare = await share(author, "art", {}, { body: "" });
    expect(bare).toEqual({ ok: false, status: 400, errors: { image: "Choose an image for Visual Art: the image is the work, words are optional." } });
  });

  it("says how many creations an initiate has left today, read without recording; none for a rank without the limit", async () => {
    const initiate = await member(0);
    expect(await creationsLeftToday(site.services, initiate)).toBe(3);
    expect((await share(initiate, "writing")).ok).toBe(true);
    expect(await creationsLeftToday(site.services, initiate)).toBe(2);
    // Reading it is no post: the same figure again, and the two posts left can still be made.
    expect(await creationsLeftToday(site.services, initiate)).toBe(2);
    for (let i = 0; i < 2; i++) expect((await share(initiate, "art", { image: await png() }, { body: "" })).ok).toBe(true);
    expect(await creationsLeftToday(site.services, initiate)).toBe(0);
    expect(await creationsLeftToday(site.services, await member(60))).toBeNull();
  });

  it("drops every metadata block from the stored image", async () => {
    const author = await member();
    const shared = await share(author, "art", { image: await jpegWithMetadata() });
    const r = await row(shared.ok ? shared.value.id : 0);
    for (const name of [r.image_name, r.image_display_name, r.image_thumb_name]) {
      const meta = await sharp((await site.services.media.get(name!))!.data).metadata();
      expect([meta.exif, meta.xmp, meta.icc, meta.comments]).toEqual([undefined, undefined, undefined, undefined]);
    }
  });

  it("refuses bad files, wrong types and missing files with a message, storing nothing", async () => {
    const author = await member();
    const media = await mediaCount();
    const cases: [CreationInput["type"], CreationFiles, string, RegExp][] = [
      ["art", { image: htmlAsPng() }, "image", /PNG, JPEG, WebP or GIF/],
      ["art", { image: svg() }, "image", /PNG, JPEG, WebP or GIF/],
      ["art", { image: await pixelBomb() }, "image", /too many pixels/],
      ["art", { image: await truncatedJpeg() }, "image", /could not be read/],
      ["art", {}, "image", /Choose an image/],
      ["music", { audio: pdf() }, "audio", /MP3, OGG or WAV/],
      ["music", { audio: await png() }, "audio", /MP3, OGG or WAV/],
      ["music", {}, "audio", /Choose an audio file/],
      ["music", { image: await png(), audio: wav() }, "image", /Only Visual Art takes an image/],
      ["writing", { audio: wav() }, "audio", /Only Music takes an audio file/],
    ];
    for (const [type, files, field, message] of cases) {
      const result = await share(author, type, files);
      expect(result.ok, `${type} ${field} ${message}`).toBe(false);
      if (!result.ok) expect(result.errors[field]).toMatch(message);
    }
    expect(await mediaCount()).toBe(media);
    expect(await xpOf(author)).toBe(60);
  });

  it("a double submit makes one creation with one set of files", async () => {
    const author = await member();
    const media = await mediaCount();
    const once = input("art");
    const image = await png();
    const [a, b] = await Promise.all([shareCreation(site.services, author, once, { image }), shareCreation(site.services, author, once, { image })]);
    expect(a.ok && b.ok && a.value.id === b.value.id).toBe(true);
    expect(await mediaCount()).toBe(media + 3);
    expect(await xpOf(author)).toBe(70);
  });

  it("50 parallel submits of one form make one creation and one set of files, decoded once", async () => {
    const author = await member();
    const media = await mediaCount();
    const decodes = imageDecodes();
    const once = input("art");
    const image = await png(40, 40);
    const results = await Promise.all(Array.from({ length: 50 }, () => shareCreation(site.services, author, once, { image })));
    // Each is answered with the one creation, or (beyond the member's few waiting images) told to wait.
    const ids = new Set(results.filter((r) => r.ok).map((r) => r.value.id));
    expect(ids.size).toBe(1);
    for (const r of results.filter((r) => !r.ok)) expect(r).toEqual({ ok: false, status: 429, errors: { image: IMAGE_IN_PROGRESS } });
    expect(await mediaCount()).toBe(media + 3);
    expect(await xpOf(author)).toBe(70);
    // Those that waited found the creation made and decoded nothing, nor spent the member's budget.
    expect(imageDecodes()).toBe(decodes + 1);
    expect(await decodeHits(author)).toBe(1);
  });

  it("50 parallel shares by an initiate: exactly three pass the daily limit", async () => {
    const initiate = await member(0);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => share(initiate, "writing", {}, { title: `Parallel piece ${i}` })));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok && r.status === 429)).toHaveLength(47);
  });

  it("counts creations in the initiate's daily limit shared with discussions and questions", async () => {
    const initiate = await member(0);
    for (let i = 0; i < 3; i++) expect((await share(initiate, "writing")).ok).toBe(true);
    const fourth = await share(initiate, "art", { image: await png() });
    expect(fourth.ok).toBe(false);
    if (!fourth.ok) expect(fourth.status).toBe(429);
  });
});

describe(`every cheap refusal before an image is decoded on ${ENGINE}`, () => {
  /** An image that passes every cheap check and fails only when decoded: a refusal of it that is no 400 was decided first. */
  const undecodable = () => truncatedJpeg();
  const fillWriteLimit = async (viewer: Viewer) => {
    let room = WRITE_LIMIT.max;
    while (room > 0 && (await hit(site.services.db, [{ key: writeKey(viewer), ...WRITE_LIMIT }])).ok) room -= 1;
  };

  it("an initiate over the daily limit is refused (429) without one of 16 parallel images decoded", async () => {
    const initiate = await member(0);
    for (let i = 0; i < 3; i++) expect((await share(initiate, "writing")).ok).toBe(true);
    const decodes = imageDecodes();
    const large = await png(6300, 6300);
    const images = [large, await undecodable(), await pixelBomb(), ...Array.from({ length: 13 }, () => large)];
    const results = await Promise.all(images.map((image) => share(initiate, "art", { image })));
    for (const r of results) expect(r).toEqual({ ok: false, status: 429, errors: { form: INITIATE_DAILY_POSTS_MESSAGE } });
    expect(imageDecodes()).toBe(decodes);
  });

  it("a member at the write limit is refused (429) before the image is decoded, sharing and editing", async () => {
    const author = await member();
    const shared = await share(author, "art", { image: await png() });
    const id = shared.ok ? shared.value.id : 0;
    await fillWriteLimit(author);
    const decodes = imageDecodes();
    const again = await share(author, "art", { image: await undecodable() });
    expect(again.ok || again.status).toBe(429);
    const edited = await editCreation(site.services, author, id, input("art"), { image: await undecodable() });
    expect(edited.ok || edited.status).toBe(429);
    expect(imageDecodes()).toBe(decodes);
  });

  it("the limits are read again in the member's turn: the images that lost the last post of the day are not decoded", async () => {
    const initiate = await member(0);
    for (let i = 0; i < 2; i++) expect((await share(initiate, "writing")).ok).toBe(true);
    const decodes = imageDecodes();
    const image = await png(1200, 800);
    // All three pass the limits read ahead (two posts today); one at a time, the first takes the third post.
    const results = await Promise.all([1, 2, 3].map((i) => share(initiate, "art", { image }, { title: `Race ${i}` })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.status === 429)).toHaveLength(2);
    expect(imageDecodes()).toBe(decodes + 1);
  });

  it("one image at a time per member: two more wait their turn, further ones are refused with 429", async () => {
    const author = await member();
    const other = await member();
    const image = await png(2400, 1600);
    const decodes = imageDecodes();
    const [theirs, ...mine] = await Promise.all([
      share(other, "art", { image }),
      ...[1, 2, 3, 4, 5].map((i) => share(author, "art", { image }, { title: `Parallel image ${i}` })),
    ]);
    expect(theirs.ok).toBe(true);
    expect(mine.filter((r) => r.ok)).toHaveLength(3);
    for (const r of mine.filter((r) => !r.ok)) expect(r).toEqual({ ok: false, status: 429, errors: { image: IMAGE_IN_PROGRESS } });
    expect(imageDecodes()).toBe(decodes + 4);
  }, 60_000);
});

describe(`the hourly image budget on ${ENGINE}`, () => {
  it(`decodes ${IMAGE_DECODE_LIMIT.max} cut-short images an hour for a member, then refuses the next with 429 before decoding it`, async () => {
    const author = await member();
    const cut = await truncatedJpeg();
    const decodes = imageDecodes();
    for (let i = 0; i < IMAGE_DECODE_LIMIT.max; i++) {
      // Each passes the cheap checks and is refused only once decoded: nothing else records it.
      expect(await share(author, "art", { image: cut })).toEqual({ ok: false, status: 400, errors: { image: expect.stringMatching(/could not be read/) } });
    }
    expect(imageDecodes()).toBe(decodes + IMAGE_DECODE_LIMIT.max);
    const next = await share(author, "art", { image: await png() });
    expect(next).toEqual({ ok: false, status: 429, errors: { image: tooManyImagesMessage(60) } });
    expect(imageDecodes()).toBe(decodes + IMAGE_DECODE_LIMIT.max);
    // The budget is the member's own; the refused images stored nothing.
    expect((await share(await member(), "art", { image: await png() })).ok).toBe(true);
    expect(await xpOf(author)).toBe(60);
  }, 60_000);

  it("an image turned away by the full image queue (503) does not spend the member's budget", async () => {
    const authors = await Promise.all(Array.from({ length: IMAGE_CONCURRENCY + IMAGE_QUEUE + 2 }, () => member()));
    const image = await png(1000, 1000);
    const results = await Promise.all(authors.map((author) => share(author, "art", { image })));
    const busy = authors.filter((_, i) => !results[i].ok);
    expect(busy.length).toBeGreaterThan(0);
    for (const [i, author] of authors.entries()) {
      const r = results[i];
      if (r.ok) expect(await decodeHits(author)).toBe(1);
      else {
        expect(r).toEqual({ ok: false, status: 503, errors: { image: IMAGES_BUSY } });
        expect(await decodeHits(author)).toBe(0);
      }
    }
  }, 60_000);
});

describe(`editing, deleting and hiding creations on ${ENGINE}`, () => {
  it("replacing the image deletes the old files; changing the type drops them; keeping needs no file", async () => {
    const author = await member();
    const shared = await share(author, "art", { image: await png() });
    const id = shared.ok ? shared.value.id : 0;
    const first = await row(id);

    const kept = await editCreation(site.services, author, id, { ...input("art"), title: "Kept image" }, {});
    expect(kept.ok).toBe(true);
    expect((await row(id)).image_name).toBe(first.image_name);

    const replaced = await editCreation(site.services, author, id, input("art"), { image: await png(100, 100, "#123456") });
    expect(replaced.ok).toBe(true);
    const second = await row(id);
    expect(second.image_name).not.toBe(first.image_name);
    expect(second.edited_at).not.toBeNull();
    for (const old of [first.image_name, first.image_display_name, first.image_thumb_name]) expect(await site.services.media.head(old!)).toBeUndefined();

    const toMusic = await editCreation(site.services, author, id, input("music"), { audio: wav() });
    expect(toMusic.ok).toBe(true);
    const third = await row(id);
    expect([third.image_name, third.image_display_name, third.image_thumb_name]).toEqual([null, null, null]);
    expect(await site.services.media.head(second.image_name!)).toBeUndefined();
    expect(third.type).toBe("music");

    const bad = await editCreation(site.services, author, id, input("music"), { audio: pdf() });
    expect(bad.ok).toBe(false);
    expect((await row(id)).audio_name).toBe(third.audio_name);

    const other = await member();
    const notYours = await editCreation(site.services, other, id, input("writing"), {});
    expect(notYours.ok).toBe(false);
    if (!notYours.ok) expect(notYours.status).toBe(403);
  });

  it("the author's delete takes the files and the 10 XP with it; a moderator's hide keeps the files", async () => {
    const author = await member();
    const moderator = await member(0, "moderator");
    const hidden = await share(author, "art", { image: await png() });
    const deleted = await share(author, "music", { audio: wav() });
    const hiddenId = hidden.ok ? hidden.value.id : 0;
    const deletedId = deleted.ok ? deleted.value.id : 0;
    expect(await xpOf(author)).toBe(80);

    const audio = (await row(deletedId)).audio_name!;
    expect((await deleteOwnPost(site.services, author, "creation", deletedId)).ok).toBe(true);
    expect(await site.services.media.head(audio)).toBeUndefined();
    const gone = await row(deletedId);
    expect(gone.deleted_at).not.toBeNull();
    expect(gone.audio_name).toBeNull();
    expect(await xpOf(author)).toBe(70);

    const image = (await row(hiddenId)).image_display_name!;
    expect((await setPostHidden(site.services, moderator, "creation", hiddenId, true)).ok).toBe(true);
    expect(await site.services.media.head(image)).toBeDefined();
    expect((await setPostHidden(site.services, moderator, "creation", hiddenId, false)).ok).toBe(true);
    expect((await row(hiddenId)).image_display_name).toBe(image);
  });

  it("serves byte ranges of stored audio", async () => {
    const author = await member();
    const shared = await share(author, "music", { audio: wav() });
    const name = (await row(shared.ok ? shared.value.id : 0)).audio_name!;
    const part = await site.services.media.getRange(name, 40, 49);
    expect(Buffer.from(part!).equals(wav().subarray(40, 50))).toBe(true);
  });
});

describe(`the demo content on ${ENGINE}`, () => {
  it("gives its Visual Art a real image, stored as an upload is", async () => {
    expect(await insertDemoContent(site.services.db)).toBe(true);
    const art = await site.services.db.selectFrom("creation").selectAll().where("title", "=", "Enso Series: Twelve Circles").executeTakeFirstOrThrow();
    const display = await site.services.media.get(art.image_display_name!);
    expect([display?.contentType, display?.width, display?.height]).toEqual(["image/webp", 1200, 800]);
    expect((await sharp(display!.data).metadata()).format).toBe("webp");
    expect((await site.services.media.head(art.image_thumb_name!))?.width).toBe(480);
  });
});
