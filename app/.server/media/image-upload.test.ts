import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { pixelBomb, png, truncatedJpeg } from "../../../tests/factories/media";
import {
  encodeImage,
  IMAGE_CONCURRENCY,
  IMAGE_QUEUE,
  IMAGE_TOO_SLOW,
  IMAGE_UNREADABLE,
  IMAGES_BUSY,
  imageConcurrency,
  imageDecodes,
  imageWorkSize,
  processImage,
  readImageHeader,
  TOO_MANY_PIXELS,
} from "./image-upload";

/** The bounds on image work (ADR 0043), observed through the module's own decode count and queue. */

describe("images: header first, one decode, bounded", () => {
  it("reads the type and the size from the header without decoding a pixel", async () => {
    const before = imageDecodes();
    const big = await png(6300, 6300);
    expect(await readImageHeader(big)).toEqual({ ok: true, value: { bytes: big, width: 6300, height: 6300 } });
    expect(await readImageHeader(await pixelBomb())).toEqual({ ok: false, message: TOO_MANY_PIXELS });
    // A truncated JPEG has a sound header: only decoding would find it broken.
    const cut = await readImageHeader(await truncatedJpeg());
    expect(cut.ok).toBe(true);
    expect(imageDecodes()).toBe(before);
    if (cut.ok) expect(await encodeImage(cut.value)).toEqual({ ok: false, message: IMAGE_UNREADABLE });
    expect(imageDecodes()).toBe(before + 1);
  });

  it("never decodes so many images at once that libuv's pool has fewer than two threads for sign-ins", () => {
    for (let poolSize = 4; poolSize <= 16; poolSize++) {
      for (let cores = 1; cores <= 64; cores++) {
        const concurrency = imageConcurrency(cores, poolSize);
        expect(concurrency, `${cores} cores, pool of ${poolSize}`).toBeGreaterThanOrEqual(1);
        expect(concurrency, `${cores} cores, pool of ${poolSize}`).toBeLessThanOrEqual(Math.min(poolSize - 2, 4));
      }
    }
    // The default pool of 4 on an 8-core host: two images, not four.
    expect(imageConcurrency(8, 4)).toBe(2);
    expect(imageConcurrency(2, 4)).toBe(1);
    expect(imageConcurrency(64, 16)).toBe(4);
  });

  it("decodes an image once for its three sizes", async () => {
    const before = imageDecodes();
    const done = await processImage(await png(2400, 1200));
    expect(imageDecodes()).toBe(before + 1);
    if (!done.ok) throw new Error(done.message);
    const sizes = [done.value.full, done.value.display, done.value.thumb].map((f) => [f.width, f.height]);
    expect(sizes).toEqual([
      [2400, 1200],
      [1600, 800],
      [480, 240],
    ]);
    expect((await sharp(done.value.display.data).metadata()).format).toBe("webp");
  });

  it("gives up on an image past its time, and the next image gets the place", async () => {
    const big = await png(6300, 6300);
    expect(await processImage(big, { timeLimitMs: 1 })).toEqual({ ok: false, message: IMAGE_TOO_SLOW });
    expect(imageWorkSize()).toEqual({ running: 0, waiting: 0 });
    expect((await processImage(await png(40, 30))).ok).toBe(true);
  });

  it(`decodes ${IMAGE_CONCURRENCY} at a time, lets ${IMAGE_QUEUE} wait and refuses more at once`, async () => {
    const image = await png(1000, 1000);
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, imageWorkSize().running)), 5);
    const before = imageDecodes();
    const results = await Promise.all(Array.from({ length: IMAGE_CONCURRENCY + IMAGE_QUEUE + 2 }, () => processImage(image)));
    clearInterval(watch);
    expect(results.filter((r) => r.ok)).toHaveLength(IMAGE_CONCURRENCY + IMAGE_QUEUE);
    expect(results.filter((r) => !r.ok)).toEqual([
      { ok: false, message: IMAGES_BUSY, busy: true },
      { ok: false, message: IMAGES_BUSY, busy: true },
    ]);
    expect(imageDecodes()).toBe(before + IMAGE_CONCURRENCY + IMAGE_QUEUE);
    expect(most).toBe(IMAGE_CONCURRENCY);
  }, 60_000);
});
