import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { NewMedia } from "../../media/media-store";
import { AUDIO_REFUSED, processAudio, processImage } from "../../media/process-upload";
import type { CreationInput } from "~/schemas/forge";
import { createPost, editPost, loadOwnPost } from "../posts/pipeline";
import { retypeCreation } from "./forge-repository";
import { fail, type Outcome } from "../outcome";

/**
 * Sharing and editing a creation (issue 10): the upload is checked and re-encoded before any
 * transaction, then the posting pipeline (ADR 0017) writes the creation, its files and its XP in
 * one transaction, so no file is stored without the creation that shows it (ADR 0020).
 */

export interface CreationFiles {
  image?: Buffer;
  audio?: Buffer;
}

type MediaColumns = { image_name: string | null; image_display_name: string | null; image_thumb_name: string | null; audio_name: string | null };
const NO_MEDIA: MediaColumns = { image_name: null, image_display_name: null, image_thumb_name: null, audio_name: null };

/** The files a creation of this type will keep: new ones checked and re-encoded, or what it had. */
async function prepareMedia(
  input: CreationInput,
  files: CreationFiles,
  current: MediaColumns,
): Promise<Outcome<{ files: Omit<NewMedia, "ownerId">[]; columns: MediaColumns }>> {
  if (files.image && input.type !== "art") return fail(400, "Only Visual Art takes an image. Remove the image or choose Visual Art.", "image");
  if (files.audio && input.type !== "music") return fail(400, "Only Music takes an audio file. Remove it or choose Music.", "audio");
  if (input.type === "art") {
    if (!files.image) return current.image_name ? keep(current, "image") : fail(400, "Choose an image for Visual Art", "image");
    const image = await processImage(files.image);
    if (!image.ok) return fail(400, image.message, "image");
    const { full, display, thumb } = image.value;
    return {
      ok: true,
      value: { files: [full, display, thumb], columns: { ...NO_MEDIA, image_name: full.name, image_display_name: display.name, image_thumb_name: thumb.name } },
    };
  }
  if (input.type === "music") {
    if (!files.audio) return current.audio_name ? keep(current, "audio") : fail(400, "Choose an audio file for Music", "audio");
    const audio = await processAudio(files.audio);
    if (!audio.ok) return fail(400, AUDIO_REFUSED, "audio");
    return { ok: true, value: { files: [audio.value], columns: { ...NO_MEDIA, audio_name: audio.value.name } } };
  }
  return { ok: true, value: { files: [], columns: NO_MEDIA } };
}

function keep(current: MediaColumns, which: "image" | "audio"): Outcome<{ files: []; columns: MediaColumns }> {
  const columns =
    which === "image"
      ? { ...NO_MEDIA, image_name: current.image_name, image_display_name: current.image_display_name, image_thumb_name: current.image_thumb_name }
      : { ...NO_MEDIA, audio_name: current.audio_name };
  return { ok: true, value: { files: [], columns } };
}

// The type is not among them: an edit moves it with retypeCreation, which moves the category counts too.
const textColumns = (input: CreationInput) => ({
  title: input.title,
  description: input.description,
  body: input.body,
  link_url: input.type === "projects" ? (input.linkUrl ?? null) : null,
});

async function storeAndLink(services: AppServices, trx: Db, viewer: Viewer, id: number, files: Omit<NewMedia, "ownerId">[], columns: MediaColumns) {
  for (const file of files) await services.media.put(trx, { ...file, ownerId: viewer.id });
  await trx.updateTable("creation").set(columns).where("id", "=", id).execute();
}

export async function shareCreation(
  services: AppServices,
  viewer: Viewer,
  input: CreationInput & { submissionKey: string },
  files: CreationFiles,
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const media = await prepareMedia(input, files, NO_MEDIA);
  if (!media.ok) return media;
  const posted = await createPost(
    services,
    viewer,
    {
      kind: "creation",
      parentId: null,
      values: { ...textColumns(input), type: input.type },
      submissionKey: input.submissionKey,
      // Written only when this submit made the creation: a double submit stores no second copy.
      alsoWrite: (trx, id) => storeAndLink(services, trx, viewer, id, media.value.files, media.value.columns),
    },
    now,
  );
  return posted.ok ? { ok: true, value: { id: posted.value.id } } : posted;
}

/** What the edit form starts from. */
export async function creationForEdit(services: AppServices, viewer: Viewer, id: number) {
  const own = await loadOwnPost(services.db, viewer, "creation", id);
  if (!own.ok) return own;
  const row = await services.db
    .selectFrom("creation")
    .select(["id", "title", "description", "type", "body", "link_url", "image_name", "image_display_name", "audio_name"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return { ok: true as const, value: row };
}

/**
 * The author's edit: the text, the type and, if a new file comes, the file. Files the creation no
 * longer shows (replaced, or its type changed) are deleted in the same transaction.
 */
export async function editCreation(
  services: AppServices,
  viewer: Viewer,
  id: number,
  input: CreationInput,
  files: CreationFiles,
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const own = await loadOwnPost(services.db, viewer, "creation", id);
  if (!own.ok) return own;
  const current = await readMediaColumns(services.db, id);
  const media = await prepareMedia(input, files, current);
  if (!media.ok) return media;
  const edited = await editPost(
    services,
    viewer,
    "creation",
    id,
    {
      values: () => textColumns(input),
      alsoWrite: async (trx) => {
        // Read again inside the transaction: a parallel edit may have replaced the files already.
        const before = await readMediaColumns(trx, id);
        await retypeCreation(trx, id, input.type);
        await storeAndLink(services, trx, viewer, id, media.value.files, media.value.columns);
        const kept = new Set(Object.values(media.value.columns));
        await services.media.delete(
          trx,
          Object.values(before).filter((name): name is string => name !== null && !kept.has(name)),
        );
      },
    },
    now,
  );
  return edited.ok ? { ok: true, value: { id } } : edited;
}

async function readMediaColumns(db: Db, id: number): Promise<MediaColumns> {
  return db
    .selectFrom("creation")
    .select(["image_name", "image_display_name", "image_thumb_name", "audio_name"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}
