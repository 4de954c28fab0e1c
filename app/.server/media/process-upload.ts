import { fileTypeFromBuffer } from "file-type";
import { mediaName, type NewMedia } from "./media-store";

/**
 * What an upload becomes before it is stored (ADR 0020). The type is decided from the bytes
 * (file-type), never from the name or the browser's word. Images have a module of their own,
 * image-upload.ts, which bounds their decoding (ADR 0043).
 */

export type Processed<T> = { ok: true; value: T } | { ok: false; message: string };

export const AUDIO_REFUSED = "Choose an MP3, OGG or WAV audio file.";

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
