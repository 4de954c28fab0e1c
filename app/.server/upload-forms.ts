import * as z from "zod/mini";
import { firstErrors, type FieldErrors } from "~/schemas/form-data";
import { AUDIO_MAX_BYTES, IMAGE_MAX_BYTES, UPLOAD_BODY_LIMIT } from "~/schemas/forge";
import { AVATAR_BODY_LIMIT } from "~/schemas/fields";
import { readMultipart, type UploadedFile } from "./media/multipart";

const CREATION_FILES = {
  image: { maxBytes: IMAGE_MAX_BYTES, tooLarge: "The image is larger than 5 MB." },
  audio: { maxBytes: AUDIO_MAX_BYTES, tooLarge: "The audio file is larger than 20 MB." },
};

/**
 * Reads a creation form (multipart, streamed and bounded) and parses its text fields with the
 * shared schema. A refused upload answers 413 or 400 at once, without reading the rest.
 */
export async function parseCreationForm<S extends z.core.$ZodType>(request: Request, schema: S) {
  const read = await readMultipart(request, { files: CREATION_FILES, totalBytes: UPLOAD_BODY_LIMIT, maxFields: 8, fieldBytes: 100_000 });
  if (!read.ok) return { ok: false as const, status: read.status, errors: { [read.field]: read.message } as FieldErrors };
  const result = z.safeParse(schema, read.fields);
  const files: Record<string, UploadedFile | undefined> = read.files;
  if (!result.success) return { ok: false as const, status: 400 as const, errors: firstErrors(result.error.issues) };
  return { ok: true as const, values: result.data as z.infer<S>, files };
}

/**
 * The settings' picture form (ADR 0072): one file field, `avatar`, and no text, read as it
 * streams in; a file over 5 MB is refused before the rest is read. An empty field gives no file.
 */
export async function parseAvatarForm(request: Request) {
  const read = await readMultipart(request, {
    files: { avatar: { maxBytes: IMAGE_MAX_BYTES, tooLarge: "The image is larger than 5 MB." } },
    totalBytes: AVATAR_BODY_LIMIT,
    maxFields: 2,
    fieldBytes: 1000,
  });
  if (!read.ok) return { ok: false as const, status: read.status, errors: { [read.field]: read.message } as FieldErrors };
  const file: UploadedFile | undefined = read.files.avatar;
  return { ok: true as const, file };
}
