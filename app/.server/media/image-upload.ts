import os from "node:os";
import { fileTypeFromBuffer } from "file-type";
import { loadSharp } from "./sharp";
import { WorkQueue } from "./image-queue";
import { mediaName, type NewMedia } from "./media-store";
import { AVATAR_SIZES, avatarFileName } from "~/lib/media";

/**
 * What an uploaded image becomes before it is stored (ADR 0020, bounded by ADR 0043). The type is
 * decided from the bytes (file-type), never from the name or the browser's word; the header alone
 * says how many pixels the image has, before any pixel is decoded. The image is then decoded once
 * and re-encoded with sharp: metadata (EXIF, GPS, XMP, ICC, comments) is dropped because it is
 * never copied over, and truncated input fails.
 *
 * Decoding and encoding hold a thread of libuv's pool for up to seconds, the same pool that
 * hashes passwords (scrypt) and compresses pages. So this process decodes at most
 * IMAGE_CONCURRENCY images at once, lets IMAGE_QUEUE more wait and refuses the rest at once, and
 * gives each image IMAGE_SECONDS in all.
 */

/** 40 megapixels: any photo a phone takes, far below what would exhaust memory on decode. */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const DISPLAY_WIDTH = 1600;
export const THUMB_WIDTH = 480;
/** The "full" image is kept at most this large on each side (WebP's own ceiling is 16,383). */
const FULL_SIDE = 4096;
/**
 * Images decoded at once: half the cores, but always two threads of libuv's pool left free (it
 * has 4 unless UV_THREADPOOL_SIZE says otherwise, and scrypt needs one for each sign-in), and at
 * most 4, since each image holds up to about 350 MB while it is worked on. One on a 2-core box.
 */
export function imageConcurrency(cores: number, poolSize: number) {
  return Math.max(1, Math.min(Math.floor(cores / 2), poolSize - 2, 4));
}
export const IMAGE_CONCURRENCY = imageConcurrency(os.availableParallelism(), Number(process.env.UV_THREADPOOL_SIZE) || 4);
/** Images waiting for their turn; beyond this the upload is refused rather than held in memory. */
export const IMAGE_QUEUE = 8;
/**
 * WebP's effort (0–6, sharp's default 4): 2 encodes a 4096-pixel image in a third to a half less
 * time, to files of about the same size (measured on flat and on noisy images); the full size's
 * encode is most of an upload's work.
 */
const WEBP_EFFORT = 2;
/** One image's decode and three encodes: a 40-megapixel photo takes about 2 s on one core. */
export const IMAGE_SECONDS = 10;

export const IMAGE_REFUSED = "Choose a PNG, JPEG, WebP or GIF image.";
export const TOO_MANY_PIXELS = "The image has too many pixels (at most 40 megapixels).";
export const IMAGE_UNREADABLE = "The image could not be read. It may be damaged or incomplete.";
export const IMAGE_TOO_SLOW = "The image took too long to process. Try a smaller image.";
export const IMAGES_BUSY = "The site is busy with other images right now. Try again in a minute.";

const IMAGE_KINDS = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
const INPUT = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "truncated" as const };

/** A refused image; `busy` when the refusal is the server's load, not the file. */
export type ImageRefusal = { ok: false; message: string; busy?: true };

declare const checked: unique symbol;
/** An upload whose type and header passed readImageHeader: the only way to a decode. */
export type CheckedImage = { bytes: Buffer; width: number; height: number; readonly [checked]: true };

export interface ProcessedImage {
  full: Omit<NewMedia, "ownerId">;
  display: Omit<NewMedia, "ownerId">;
  thumb: Omit<NewMedia, "ownerId">;
}

const imageWork = new WorkQueue(IMAGE_CONCURRENCY, IMAGE_QUEUE);
let decodes = 0;

/** Images this process has begun to decode, for tests and the benchmark to observe. */
export const imageDecodes = () => decodes;
/** Images being decoded and waiting, for the benchmark. */
export const imageWorkSize = () => imageWork.size;

/**
 * The cheap checks, which decode no pixel: the type from the bytes and the size from the header
 * (sharp's metadata reads only the header: a 6300 × 6300 PNG answers in under a millisecond).
 */
export async function readImageHeader(bytes: Buffer): Promise<{ ok: true; value: CheckedImage } | ImageRefusal> {
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !IMAGE_KINDS.has(detected.mime)) return { ok: false, message: IMAGE_REFUSED };
  const sharp = await loadSharp();
  try {
    const { width = 0, height = 0 } = await sharp(bytes, INPUT).metadata();
    if (width * height > MAX_IMAGE_PIXELS) return { ok: false, message: TOO_MANY_PIXELS };
    return { ok: true, value: { bytes, width, height } as CheckedImage };
  } catch (error) {
    return refusal(error);
  }
}

/** A turn in the process's image queue to decode the checked image once and encode three sizes. */
export async function encodeImage(
  image: CheckedImage,
  { timeLimitMs = IMAGE_SECONDS * 1000 } = {},
): Promise<{ ok: true; value: ProcessedImage } | ImageRefusal> {
  const done = await imageWork.run(() => encodeSizes(image.bytes, Date.now() + timeLimitMs).catch(refusal));
  return done.ok ? done.value : { ok: false, message: IMAGES_BUSY, busy: true };
}

/** The header checks, then the decode: for callers with nothing to refuse in between. */
export async function processImage(bytes: Buffer, options: { timeLimitMs?: number } = {}): Promise<{ ok: true; value: ProcessedImage } | ImageRefusal> {
  const header = await readImageHeader(bytes);
  return header.ok ? encodeImage(header.value, options) : header;
}

/**
 * One decode, scaled once to the full size as raw pixels; the three WebP files are encoded from
 * those pixels, so a large upload is decoded once rather than once per size. rotate() applies the
 * EXIF orientation before the EXIF goes; nothing asks sharp to keep metadata.
 */
async function encodeSizes(bytes: Buffer, deadline: number): Promise<{ ok: true; value: ProcessedImage }> {
  const sharp = await loadSharp();
  const secondsLeft = () => timeLeft(deadline);
  decodes += 1;
  const { data, info } = await sharp(bytes, INPUT)
    .rotate()
    .resize({ width: FULL_SIDE, height: FULL_SIDE, fit: "inside", withoutEnlargement: true })
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .timeout(secondsLeft())
    .toBuffer({ resolveWithObject: true });
  const pixels = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const base = mediaName("image/webp").slice(0, 32);
  const encode = async (variant: "full" | "display" | "thumb", width: number | null, quality: number) => {
    const source = sharp(data, pixels);
    const sized = width ? source.resize({ width, withoutEnlargement: true }) : source;
    const out = await sized.webp({ quality, effort: WEBP_EFFORT }).timeout(secondsLeft()).toBuffer({ resolveWithObject: true });
    return {
      name: mediaName("image/webp", variant, base),
      contentType: "image/webp",
      data: new Uint8Array(out.data),
      width: out.info.width,
      height: out.info.height,
    };
  };
  const full = await encode("full", null, 90);
  const display = await encode("display", DISPLAY_WIDTH, 82);
  const thumb = await encode("thumb", THUMB_WIDTH, 75);
  return { ok: true, value: { full, display, thumb } };
}

/**
 * sharp's timeout is per pipeline, in whole seconds: each step gets what is left of the image's
 * time, and no step starts once it is spent.
 */
function timeLeft(deadline: number) {
  const left = Math.ceil((deadline - Date.now()) / 1000);
  if (left <= 0) throw new Error("timeout");
  return { seconds: left };
}

/** A member's picture (ADR 0072): one square in each of AVATAR_SIZES, under one base name. */
export interface ProcessedAvatar {
  base: string;
  files: Omit<NewMedia, "ownerId">[];
}

/**
 * A turn in the same queue, under the same time limit, as any other image: the checked image is
 * decoded once, turned upright by its EXIF orientation and cut to a square of the largest size
 * around what draws the eye (libvips' attention crop); the smaller sizes are encoded from those
 * pixels. Nothing of the upload's metadata is copied.
 */
export async function encodeAvatar(
  image: CheckedImage,
  { timeLimitMs = IMAGE_SECONDS * 1000 } = {},
): Promise<{ ok: true; value: ProcessedAvatar } | ImageRefusal> {
  const done = await imageWork.run(() => encodeAvatarSizes(image.bytes, Date.now() + timeLimitMs).catch(refusal));
  return done.ok ? done.value : { ok: false, message: IMAGES_BUSY, busy: true };
}

async function encodeAvatarSizes(bytes: Buffer, deadline: number): Promise<{ ok: true; value: ProcessedAvatar }> {
  const sharp = await loadSharp();
  const largest = AVATAR_SIZES[AVATAR_SIZES.length - 1];
  decodes += 1;
  const { data, info } = await sharp(bytes, INPUT)
    .rotate()
    .resize({ width: largest, height: largest, fit: "cover", position: sharp.strategy.attention })
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .timeout(timeLeft(deadline))
    .toBuffer({ resolveWithObject: true });
  const pixels = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const base = mediaName("image/webp").slice(0, 32);
  const files = [];
  for (const size of AVATAR_SIZES) {
    const source = sharp(data, pixels);
    const sized = size === largest ? source : source.resize({ width: size, height: size });
    const out = await sized.webp({ quality: 80, effort: WEBP_EFFORT }).timeout(timeLeft(deadline)).toBuffer({ resolveWithObject: true });
    files.push({ name: avatarFileName(base, size), contentType: "image/webp", data: new Uint8Array(out.data), width: out.info.width, height: out.info.height });
  }
  return { ok: true, value: { base, files } };
}

function refusal(error: unknown): ImageRefusal {
  const message = error instanceof Error ? error.message : "";
  // sharp checks limitInputPixels as it reads the header; anything else is truncated or corrupt data.
  if (/pixel limit/i.test(message)) return { ok: false, message: TOO_MANY_PIXELS };
  if (/timeout/i.test(message)) return { ok: false, message: IMAGE_TOO_SLOW };
  return { ok: false, message: IMAGE_UNREADABLE };
}
