import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { NewMedia } from "../../media/media-store";
import { TurnsByKey } from "../../media/image-queue";
import { type CheckedImage, encodeImage, readImageHeader } from "../../media/image-upload";
import { AUDIO_REFUSED, processAudio } from "../../media/process-audio";
import { forgetHits, hit } from "../../rate-limit";
import { IMAGE_DECODE_LIMIT } from "~/lib/limits";
import { ART_NEEDS_IMAGE, MUSIC_NEEDS_AUDIO, type CreationInput } from "~/schemas/forge";
import { createPost, editAllowedAhead, editOwnPost, loadOwnPost, postAllowedAhead } from "../posts/pipeline";
import { postsLeftToday } from "../posts/post-limits";
import { retypeCreation } from "./forge-repository";
import { fail, type Outcome } from "../outcome";

/**
 * Sharing and editing a creation (issue 10): the upload is checked and re-encoded before any
 * transaction, then the posting pipeline (ADR 0017) writes the creation, its files and its XP in
 * one transaction, so no file is stored without the creation that shows it (ADR 0020).
 *
 * An image is decoded only after every cheap refusal (ADR 0043): the fields, the limits read
 * ahead, the file's type and header. Then the member waits for their turn, since one member's
 * images are decoded one at a time, and the limits are read again: the image before may have
 * used the last post of the day. Every decode, kept or refused, is counted against the member's
 * hourly image budget, so files refused only once decoded cannot keep the image slots busy.
 */

export interface CreationFiles {
  image?: Buffer;
  audio?: Buffer;
}

type MediaColumns = { image_name: string | null; image_display_name: string | null; image_thumb_name: string | null; audio_name: string | null };
const NO_MEDIA: MediaColumns = { image_name: null, image_display_name: null, image_thumb_name: null, audio_name: null };

/** What happens to the creation's files: a new image or audio file to check, or the columns it keeps. */
type MediaPlan = { image: Buffer } | { audio: Buffer } | { keep: MediaColumns };
/** The plan once an image's type and header have passed: the image is read once, not again for the decode. */
type CheckedPlan = { image: CheckedImage } | { audio: Buffer } | { keep: MediaColumns };
type PreparedMedia = { files: Omit<NewMedia, "ownerId">[]; columns: MediaColumns };

/**
 * A second image from the same member waits for the first, and so does a third: a double submit,
 * then a retry, are answered with the creation the first one made (without decoding again). More
 * than that at once is no person at a form, and is refused rather than held in memory.
 */
const MEMBER_IMAGES_WAITING = 2;
const memberImages = new TurnsByKey(MEMBER_IMAGES_WAITING);
export const IMAGE_IN_PROGRESS = "Your last image is still being processed. Wait until it is done, then send this one again.";
export const tooManyImagesMessage = (minutes: number) =>
  `You have sent too many images in the last hour. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;

/** Which files a creation of this type takes, decided from the form alone (nothing is read yet). */
function planMedia(input: CreationInput, files: CreationFiles, current: MediaColumns): Outcome<MediaPlan> {
  if (files.image && input.type !== "art") return fail(400, "Only Visual Art takes an image. Remove the image or choose Visual Art.", "image");
  if (files.audio && input.type !== "music") return fail(400, "Only Music takes an audio file. Remove it or choose Music.", "audio");
  if (input.type === "art") {
    if (files.image) return { ok: true, value: { image: files.image } };
    return current.image_name ? keep(current, "image") : fail(400, ART_NEEDS_IMAGE, "image");
  }
  if (input.type === "music") {
    if (files.audio) return { ok: true, value: { audio: files.audio } };
    return current.audio_name ? keep(current, "audio") : fail(400, MUSIC_NEEDS_AUDIO, "audio");
  }
  return { ok: true, value: { keep: NO_MEDIA } };
}

function keep(current: MediaColumns, which: "image" | "audio"): Outcome<MediaPlan> {
  const columns =
    which === "image"
      ? { ...NO_MEDIA, image_name: current.image_name, image_display_name: current.image_display_name, image_thumb_name: current.image_thumb_name }
      : { ...NO_MEDIA, audio_name: current.audio_name };
  return { ok: true, value: { keep: columns } };
}

/**
 * The new files checked and re-encoded; a busy image queue is the server's refusal (503), not the
 * file's. An image's decode is recorded against the member's budget first, in one atomic step
 * (ADR 0013), whatever the decode then finds: it is the decode that costs, not the result.
 */
async function prepareMedia(services: AppServices, viewer: Viewer, plan: CheckedPlan): Promise<Outcome<PreparedMedia>> {
  if ("keep" in plan) return { ok: true, value: { files: [], columns: plan.keep } };
  if ("audio" in plan) {
    const audio = await processAudio(plan.audio);
    if (!audio.ok) return fail(400, AUDIO_REFUSED, "audio");
    return { ok: true, value: { files: [audio.value], columns: { ...NO_MEDIA, audio_name: audio.value.name } } };
  }
  const budget = await hit(services.db, [{ key: `image-decode:member:${viewer.id}`, ...IMAGE_DECODE_LIMIT }]);
  if (!budget.ok) return fail(429, tooManyImagesMessage(budget.retryMinutes), "image");
  const image = await encodeImage(plan.image);
  // Turned away by a full queue, the image was never decoded: the member gets the decode back.
  if (!image.ok && image.busy) await forgetHits(services.db, budget.hitIds);
  if (!image.ok) return fail(image.busy ? 503 : 400, image.message, "image");
  const { full, display, thumb } = image.value;
  return {
    ok: true,
    value: { files: [full, display, thumb], columns: { ...NO_MEDIA, image_name: full.name, image_display_name: display.name, image_thumb_name: thumb.name } },
  };
}

/**
 * Runs `work` (which prepares the media and writes) after every cheap refusal: `ahead`, the limits
 * read without recording, then for an image its type and header; an image's work then runs in
 * the member's turn, after `ahead` once more. The write itself still checks and records the
 * limits atomically (ADR 0013); `ahead` only spares the decoding when the answer is already no.
 */
async function afterCheapRefusals<A, T>(
  viewer: Viewer,
  plan: MediaPlan,
  ahead: () => Promise<Outcome<A>>,
  work: (allowed: A, plan: CheckedPlan) => Promise<Outcome<T>>,
): Promise<Outcome<T>> {
  const allowed = await ahead();
  if (!allowed.ok) return allowed;
  if (!("image" in plan)) return work(allowed.value, plan);
  const header = await readImageHeader(plan.image);
  if (!header.ok) return fail(400, header.message, "image");
  const checked = { image: header.value };
  const turn = await memberImages.run(viewer.id, async () => {
    const still = await ahead();
    return still.ok ? work(still.value, checked) : still;
  });
  return turn.ok ? turn.value : fail(429, IMAGE_IN_PROGRESS, "image");
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
): Promise<Outcome<{ id: number; pending: boolean }>> {
  const plan = planMedia(input, files, NO_MEDIA);
  if (!plan.ok) return plan;
  const post = {
    kind: "creation" as const,
    values: { ...textColumns(input), type: input.type },
    submissionKey: input.submissionKey,
    // The same words with another type or file are another creation (ADR 0052); the file's hash
    // costs far less than its decode, and a repeat skips the decode.
    alsoSubmitted: [input.type, files.image ?? files.audio ?? null],
  };
  return afterCheapRefusals(
    viewer,
    plan.value,
    () => postAllowedAhead(services, viewer, post, now),
    async ({ madeAlready }, checked) => {
      // The same form sent again after it made its creation: answered with it, nothing decoded or counted.
      if (madeAlready !== null) return { ok: true, value: { id: madeAlready, pending: false } };
      const media = await prepareMedia(services, viewer, checked);
      if (!media.ok) return media;
      const posted = await createPost(
        services,
        viewer,
        {
          ...post,
          parentId: null,
          // Written only when this submit made the creation: a double submit stores no second copy.
          alsoWrite: (trx, id) => storeAndLink(services, trx, viewer, id, media.value.files, media.value.columns),
        },
        now,
      );
      return posted.ok ? { ok: true, value: { id: posted.value.id, pending: posted.value.pending } } : posted;
    },
  );
}

/**
 * How many creations the member may still share today, said on the share page before the form
 * (issue 26); `null` when their rank has no daily limit. Read only: the share itself decides.
 */
export function creationsLeftToday(services: AppServices, viewer: Viewer, now = new Date()) {
  return postsLeftToday(services.db, viewer, "creation", now);
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
  const plan = planMedia(input, files, current);
  if (!plan.ok) return plan;
  return afterCheapRefusals(
    viewer,
    plan.value,
    () => editAllowedAhead(services, viewer, "creation", now),
    async (_allowed, checked) => {
      const media = await prepareMedia(services, viewer, checked);
      if (!media.ok) return media;
      const edited = await editOwnPost(
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
    },
  );
}

async function readMediaColumns(db: Db, id: number): Promise<MediaColumns> {
  return db
    .selectFrom("creation")
    .select(["image_name", "image_display_name", "image_thumb_name", "audio_name"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}
