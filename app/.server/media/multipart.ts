import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";

/**
 * Reads a multipart form post as it streams in (busboy), holding at most the limits in memory:
 * a file over its own limit, a body over the total, too many files, fields or parts stop the read
 * at once and answer 413 or 400, before the rest of the body is read. The uploader's file name is
 * only checked (never stored or used for anything).
 */

export interface MultipartLimits {
  /** Per file field: its byte limit and the message when a file goes over it. */
  files: Record<string, { maxBytes: number; tooLarge: string }>;
  /** The whole body (Content-Length checked first, then counted as it streams). */
  totalBytes: number;
  maxFields: number;
  fieldBytes: number;
}

export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
}

export type MultipartOutcome =
  { ok: true; fields: Record<string, string>; files: Record<string, UploadedFile> } | { ok: false; status: 400 | 413; field: string; message: string };

class Refused extends Error {
  constructor(
    readonly status: 400 | 413,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A file name a browser would send: no path parts, no control characters, not absurdly long. */
export function isPlainFileName(name: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return name.length <= 255 && !/[\u0000-\u001f\u007f/\\]/.test(name) && !name.includes("..");
}

export const TOO_LARGE = "The upload is too large.";

export async function readMultipart(request: Request, limits: MultipartLimits): Promise<MultipartOutcome> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;/i.test(type) || !request.body) {
    return { ok: false, status: 400, field: "form", message: "The form could not be read. Please try again." };
  }
  const length = request.headers.get("content-length");
  if (length !== null && (!/^\d+$/.test(length) || Number(length) > limits.totalBytes)) {
    return { ok: false, status: 413, field: "form", message: TOO_LARGE };
  }
  const fileFields = Object.keys(limits.files);
  const largest = Math.max(0, ...fileFields.map((f) => limits.files[f].maxBytes));
  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  const parser = busboy({
    headers: { "content-type": type },
    // The raw name as sent, so a name with path parts is refused rather than silently cut.
    preservePath: true,
    limits: {
      // One byte past the largest limit tells "at the limit" from "over it".
      fileSize: largest + 1,
      files: fileFields.length,
      fields: limits.maxFields,
      parts: fileFields.length + limits.maxFields,
      fieldSize: limits.fieldBytes,
      fieldNameSize: 64,
      headerPairs: 20,
    },
  });

  // No prototype: a field named "constructor" or "__proto__" is a field like any other.
  const fields: Record<string, string> = Object.create(null);
  const files: Record<string, UploadedFile> = Object.create(null);
  try {
    await new Promise<void>((resolve, reject) => {
      let received = 0;
      const refuse = (status: 400 | 413, field: string, message: string) => reject(new Refused(status, field, message));
      source.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > limits.totalBytes) refuse(413, "form", TOO_LARGE);
      });
      source.on("error", reject);
      parser.on("field", (name, value, info) => {
        if (info.valueTruncated) return refuse(413, name, TOO_LARGE);
        if (Object.hasOwn(fields, name)) return refuse(400, "form", "The form could not be read. Please try again.");
        // As readForm does for other forms (app/.server/forms.ts): NUL is no text either engine keeps.
        fields[name] = value.replaceAll("\0", "");
      });
      parser.on("file", (name, stream, info) => {
        const rule = Object.hasOwn(limits.files, name) ? limits.files[name] : undefined;
        if (!rule || Object.hasOwn(files, name)) {
          stream.resume();
          return refuse(400, "form", "The form could not be read. Please try again.");
        }
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > rule.maxBytes) return refuse(413, name, rule.tooLarge);
          chunks.push(chunk);
        });
        stream.on("end", () => {
          // A file input left empty still sends a part: no name, no bytes.
          if (size === 0 && !info.filename) return;
          if (!info.filename || !isPlainFileName(info.filename)) return refuse(400, name, "The file name is not allowed.");
          files[name] = { fileName: info.filename, bytes: Buffer.concat(chunks, size) };
        });
      });
      parser.on("filesLimit", () => refuse(400, "form", "Too many files in one form."));
      parser.on("fieldsLimit", () => refuse(400, "form", "Too many fields in one form."));
      parser.on("partsLimit", () => refuse(400, "form", "Too many fields in one form."));
      parser.on("error", () => refuse(400, "form", "The form could not be read. Please try again."));
      parser.on("close", () => resolve());
      source.pipe(parser);
    });
  } catch (error) {
    // Stop parsing: the rest of the body (bounded by Content-Length) is discarded as it arrives,
    // never held, and the answer goes out at once.
    source.unpipe(parser);
    source.resume();
    if (error instanceof Refused) return { ok: false, status: error.status, field: error.field, message: error.message };
    return { ok: false, status: 400, field: "form", message: "The form could not be read. Please try again." };
  }
  return { ok: true, fields, files };
}
