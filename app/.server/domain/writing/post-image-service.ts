import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import { TurnsByKey } from "../../media/image-queue";
import { encodeImage, readImageHeader } from "../../media/image-upload";
import { wroteNothingPublic } from "../../cache/page-tags";
import { forgetHits, hit } from "../../rate-limit";
import { IMAGE_DECODE_LIMIT } from "~/lib/limits";
import { mediaUrl } from "~/lib/media";
import { postImageMarkdown } from "~/lib/post-images";
import { speakAllowed } from "../accounts/silence";
import { fail, type Outcome } from "../outcome";
import { attachPostImages, deleteUntakenPostImages, insertPostImage, unattachedPostImages } from "./post-image-repository";

/**
 * Pictures in posts (issue 32, ADR 0071): a member drops, pastes or chooses an image in any
 * Markdown box; it comes here at once, goes through the pipeline a Forge image takes (type from
 * the bytes, pixels from the header, one bounded decode, three WebP sizes with no metadata) and the
 * box gets Markdown naming the display size with its width and height.
 *
 * The cheap refusals come first (ADR 0043): a silenced member, the hourly image budget (shared with
 * the Forge: a decode is a decode), the bytes' type and header. Then the member waits for their
 * turn, one image at a time, so a burst of pastes is decoded in order and never side by side.
 */

const MEMBER_IMAGES_WAITING = 4;
const memberImages = new TurnsByKey(MEMBER_IMAGES_WAITING);
export const POST_IMAGES_WAITING = "Your other images are still being processed. Wait until they are done, then add this one again.";
export const tooManyPostImagesMessage = (minutes: number) =>
  `You have added too many images in the last hour. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;

export interface UploadedPostImage {
  url: string;
  width: number;
  height: number;
  markdown: string;
}

export async function uploadPostImage(
  services: AppServices,
  viewer: Viewer,
  file: { fileName: string; bytes: Buffer },
  now = new Date(),
): Promise<Outcome<UploadedPostImage>> {
  const speaking = await speakAllowed(services.db, viewer, now);
  if (!speaking.ok) return speaking;
  const header = await readImageHeader(file.bytes);
  if (!header.ok) return fail(400, header.message, "image");
  const turn = await memberImages.run(viewer.id, async (): Promise<Outcome<UploadedPostImage>> => {
    // Recorded before the decode, in one atomic step (ADR 0013): it is the decode that costs.
    const budget = await hit(services.db, [{ key: `image-decode:member:${viewer.id}`, ...IMAGE_DECODE_LIMIT }], now);
    if (!budget.ok) return fail(429, tooManyPostImagesMessage(budget.retryMinutes), "image");
    const image = await encodeImage(header.value);
    // Turned away by a full queue, the image was never decoded: the member gets the decode back.
    if (!image.ok && image.busy) await forgetHits(services.db, budget.hitIds);
    if (!image.ok) return fail(image.busy ? 503 : 400, image.message, "image");
    const { full, display, thumb } = image.value;
    // encodeImage always measures what it encodes.
    const width = display.width ?? 0;
    const height = display.height ?? 0;
    await services.db.transaction().execute(async (trx) => {
      for (const stored of [full, display, thumb]) await services.media.put(trx, { ...stored, ownerId: viewer.id });
      await insertPostImage(trx, {
        displayName: display.name,
        fullName: full.name,
        thumbName: thumb.name,
        width,
        height,
        ownerId: viewer.id,
        at: now.toISOString(),
      });
    });
    // Nothing any page shows until a post holds it (and the post's own write names its pages): an
    // upload keeps every kept page.
    wroteNothingPublic();
    const url = mediaUrl(display.name);
    return { ok: true, value: { url, width, height, markdown: postImageMarkdown(file.fileName, url, width, height) } };
  });
  return turn.ok ? turn.value : fail(429, POST_IMAGES_WAITING, "image");
}

/** The display names of this site's post images a rendered body shows (in the post's transaction, attachPostImages). */
export function postImagesIn(html: string): string[] {
  const names = new Set<string>();
  for (const match of html.matchAll(/<img src="\/media\/([0-9a-f]{32}-display\.webp)"/g)) names.add(match[1]!);
  return [...names];
}

/** Saving a post takes the images its body shows: the sweep leaves them from then on. */
export async function takePostImages(trx: Db, html: unknown, at: string) {
  if (typeof html === "string" && html.includes("<img")) await attachPostImages(trx, postImagesIn(html), at);
}

/** An image no post took within this long is deleted (a closed tab, a removed line, a discarded draft). */
export const UNATTACHED_IMAGE_MS = 24 * 60 * 60 * 1000;
const SWEEP_BATCH = 100;

/**
 * Deletes the images uploaded more than a day ago that no saved post took, with their files, a
 * batch at a time, each batch one transaction. A draft keeps its text, not its images: a draft
 * left longer than a day comes back with its images gone, which the member sees in the preview.
 */
export async function sweepUnattachedPostImages(services: Pick<AppServices, "db" | "media">, now: Date) {
  const before = new Date(now.getTime() - UNATTACHED_IMAGE_MS).toISOString();
  let swept = 0;
  for (;;) {
    const batch = await unattachedPostImages(services.db, before, SWEEP_BATCH);
    if (batch.length === 0) return swept;
    await services.db.transaction().execute(async (trx) => {
      const deleted = await deleteUntakenPostImages(
        trx,
        batch.map((i) => i.display_name),
      );
      await services.media.delete(
        trx,
        deleted.flatMap((i) => [i.display_name, i.full_name, i.thumb_name]),
      );
    });
    swept += batch.length;
    if (batch.length < SWEEP_BATCH) return swept;
  }
}
