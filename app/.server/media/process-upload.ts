import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { mediaName, type NewMedia } from "./media-store";

/**
 * What an upload becomes before it is stored (ADR 0020). The type is decided from the bytes
 * (file-type), never from the name or the browser's word. Images are decoded and re-encoded with
 * sharp: metadata (EXIF, GPS, XMP, ICC, comments) is dropped because it is never copied over, a
 * pixel ceiling refuses a small file that decodes to a huge image, and truncated input fails.
 */

/** 40 megapixels: any photo a phone takes, far below what would exhaust memory on decode. */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const DISPLAY_WIDTH = 1600;
export const THUMB_WIDTH = 480;
/** The "full" image is kept at most this large on each side (WebP's own ceiling is 16,383). */
const FULL_SIDE = 4096;

export type Processed<T> = { ok: true; value: T } | { ok: false; message: string };

export interface ProcessedImage {
  full: Omit<NewMedia, "ownerId">;
  display: Omit<NewMedia, "ownerId">;
  thumb: Omit<NewMedia, "ownerId">;
}

const IMAGE_KINDS = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
export const IMAGE_REFUSED = "Choose a PNG, JPEG, WebP or GIF image.";
export const TOO_MANY_PIXELS = "The image has too many pixels (at most 40 megapixels).";
export const AUDIO_REFUSED = "Choose an MP3, OGG or WAV audio file.";

export async function processImage(bytes: Buffer): Promise<Processed<ProcessedImage>> {
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !IMAGE_KINDS.has(detected.mime)) return { ok: false, message: IMAGE_REFUSED };
  const options = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "truncated" as const };
  try {
    // The header alone says how large the image would be, before any pixel is decoded.
    const { width = 0, height = 0 } = await sharp(bytes, options).metadata();
    if (width * height > MAX_IMAGE_PIXELS) return { ok: false, message: TOO_MANY_PIXELS };
    const base = mediaName("image/webp").slice(0, 32);
    // rotate() applies the EXIF orientation before the EXIF goes; nothing asks sharp to keep metadata.
    const encode = async (side: number, fit: "inside" | "width", quality: number, variant: "full" | "display" | "thumb") => {
      const pipeline = sharp(bytes, options).rotate();
      const resized =
        fit === "inside"
          ? pipeline.resize({ width: side, height: side, fit: "inside", withoutEnlargement: true })
          : pipeline.resize({ width: side, withoutEnlargement: true });
      const { data, info } = await resized.webp({ quality }).toBuffer({ resolveWithObject: true });
      return { name: mediaName("image/webp", variant, base), contentType: "image/webp", data: new Uint8Array(data), width: info.width, height: info.height };
    };
    const full = await encode(FULL_SIDE, "inside", 90, "full");
    const display = await encode(DISPLAY_WIDTH, "width", 82, "display");
    const thumb = await encode(THUMB_WIDTH, "width", 75, "thumb");
    return { ok: true, value: { full, display, thumb } };
  } catch (error) {
    // sharp checks limitInputPixels as it reads the header; anything else is truncated or corrupt data.
    if (error instanceof Error && /pixel limit/i.test(error.message)) return { ok: false, message: TOO_MANY_PIXELS };
    return { ok: false, message: "The image could not be read. It may be damaged or incomplete." };
  }
}

const AUDIO_KINDS: Record<string, "audio/mpeg" | "audio/ogg" | "audio/wav"> = {
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
};

/** Audio is stored as sent, under a generated name, once its bytes prove it is MP3, OGG or WAV. */
export async function processAudio(bytes: Buffer): Promise<Processed<Omit<NewMedia, "ownerId">>> {
  const detected = await fileTypeFromBuffer(bytes);
  const contentType = detected ? AUDIO_KINDS[detected.ext] : undefined;
  if (!contentType) return { ok: false, message: AUDIO_REFUSED };
  return { ok: true, value: { name: mediaName(contentType), contentType, data: new Uint8Array(bytes) } };
}
