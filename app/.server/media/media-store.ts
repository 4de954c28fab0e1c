import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/connect";

/**
 * Where uploaded files live (ADR 0020). One implementation keeps them in the database
 * (media-store-database.ts), so every app instance serves the same files and a database backup
 * holds them; an S3-compatible store can implement the same interface later. Writes take the
 * caller's transaction, so a file and the row that points at it are written (or deleted) together;
 * a store outside the database would upload before the transaction and delete after it.
 */
export interface MediaStore {
  put(trx: Db, file: NewMedia): Promise<void>;
  /** The file's description without its bytes (for 304s and range requests), or undefined. */
  head(name: string): Promise<MediaInfo | undefined>;
  get(name: string): Promise<(MediaInfo & { data: Uint8Array }) | undefined>;
  /** Bytes start..end (inclusive) of a file, or undefined when it is gone. */
  getRange(name: string, start: number, end: number): Promise<Uint8Array | undefined>;
  delete(trx: Db, names: readonly string[]): Promise<void>;
}

export interface MediaInfo {
  name: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  width: number | null;
  height: number | null;
}

export interface NewMedia {
  name: string;
  contentType: string;
  data: Uint8Array;
  width?: number | null;
  height?: number | null;
  ownerId: string;
}

/** Only these types are ever stored, so nothing served from /media renders as a page. */
export const STORED_EXTENSIONS = {
  "image/webp": "webp",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "audio/wav": "wav",
} as const;
export type StoredType = keyof typeof STORED_EXTENSIONS;

/**
 * A fresh name for a stored file: 128 random bits, the variant, the stored type's extension. The
 * uploader's file name is never used (app/lib/media.ts holds the pattern the route checks).
 */
export function mediaName(contentType: StoredType, variant?: "full" | "display" | "thumb", base = randomBytes(16).toString("hex")) {
  return `${base}${variant ? `-${variant}` : ""}.${STORED_EXTENSIONS[contentType]}`;
}

export const sha256Hex = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
