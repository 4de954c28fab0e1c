import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import { tag, wrote } from "../../cache/page-tags";
import { TurnsByKey } from "../../media/image-queue";
import { encodeAvatar, readImageHeader } from "../../media/image-upload";
import { forgetHits, hit } from "../../rate-limit";
import { fail, type Outcome } from "../outcome";
import { IMAGE_IN_PROGRESS, tooManyImagesMessage } from "../forge/creation-service";
import { IMAGE_DECODE_LIMIT } from "~/lib/limits";
import { AVATAR_SIZES, avatarFileName } from "~/lib/media";
import { findAvatarForChange, updateAvatar } from "./member-repository";
import { notify, ringBells } from "../notifications/notification-service";
import { isModerator } from "./roles";

/**
 * A member's picture (issue 32, ADR 0072): uploaded in the settings, shown wherever they are an
 * author, removed with one click. The upload meets the same bounds as any image (ADR 0043): the
 * route has refused visitors and files over 5 MB, then the type and the header are read (no pixel
 * decoded), then the member's turn and their hourly image budget, and only then the one decode.
 * The new files, the member row and the old files' deletion are one transaction, so the row never
 * names a file that is not there and no replaced file is left behind.
 */

/** The form's file field. */
export const AVATAR_FIELD = "avatar";
export const AVATAR_MISSING = "Choose a picture to upload.";

/**
 * One picture at a time per member; a second (a double submit) waits for the first and then
 * replaces it, as a second upload would. More at once is no person at a form.
 */
const memberAvatars = new TurnsByKey(1);

const filesOf = (base: string) => AVATAR_SIZES.map((size) => avatarFileName(base, size));

export async function setAvatar(services: AppServices, viewer: Viewer, bytes: Buffer | undefined, now = new Date()): Promise<Outcome<{ avatar: string }>> {
  if (!bytes) return fail(400, AVATAR_MISSING, AVATAR_FIELD);
  const header = await readImageHeader(bytes);
  if (!header.ok) return fail(400, header.message, AVATAR_FIELD);
  const turn = await memberAvatars.run(viewer.id, async (): Promise<Outcome<{ avatar: string }>> => {
    // Every decode counts against the same hourly budget as the Forge's images, whatever it finds.
    const budget = await hit(services.db, [{ key: `image-decode:member:${viewer.id}`, ...IMAGE_DECODE_LIMIT }]);
    if (!budget.ok) return fail(429, tooManyImagesMessage(budget.retryMinutes), AVATAR_FIELD);
    const image = await encodeAvatar(header.value);
    // Turned away by a full queue, the image was never decoded: the member gets the decode back.
    if (!image.ok && image.busy) await forgetHits(services.db, budget.hitIds);
    if (!image.ok) return fail(image.busy ? 503 : 400, image.message, AVATAR_FIELD);
    const { base, files } = image.value;
    await services.db.transaction().execute(async (trx) => {
      const previous = await findAvatarForChange(trx, viewer.id);
      for (const file of files) await services.media.put(trx, { ...file, ownerId: viewer.id });
      await updateAvatar(trx, viewer.id, base, now.toISOString());
      if (previous) await services.media.delete(trx, filesOf(previous));
    });
    // Named once committed: the picture shows wherever the member is an author, and in their own header.
    wrote(tag.member(viewer.id));
    return { ok: true, value: { avatar: base } };
  });
  return turn.ok ? turn.value : fail(429, IMAGE_IN_PROGRESS, AVATAR_FIELD);
}

/** Back to the initials in one click; removing no picture changes nothing. */
export async function removeAvatar(services: AppServices, viewer: Viewer, now = new Date()): Promise<Outcome<null>> {
  await services.db.transaction().execute((trx) => dropAvatar(services, trx, viewer.id, now));
  wrote(tag.member(viewer.id));
  return { ok: true, value: null };
}

/**
 * The member's picture gone, row and files together, in the caller's transaction (also an account's
 * deletion's, ADR 0023): the base name of the picture it dropped, or null when there was none.
 */
export async function dropAvatar(services: AppServices, trx: Db, memberId: string, now: Date): Promise<string | null> {
  const previous = await findAvatarForChange(trx, memberId);
  if (!previous) return null;
  await updateAvatar(trx, memberId, null, now.toISOString());
  await services.media.delete(trx, filesOf(previous));
  return previous;
}

export const PICTURE_MESSAGES = {
  moderatorsOnly: "Only moderators may remove another member's picture.",
  missing: "That member has no picture.",
};

/**
 * A moderator takes down a member's picture (one that breaks the code of conduct): the member is
 * back to their initials at once, and is told, whatever their notification settings. They may
 * upload another, which the same rules hold.
 */
export async function removeMemberPicture(services: AppServices, viewer: Viewer, memberId: string, now = new Date()): Promise<Outcome<null>> {
  if (!isModerator(viewer)) return fail(403, PICTURE_MESSAGES.moderatorsOnly);
  const told = await services.db.transaction().execute(async (trx) => {
    // The picture dropped under the row's lock: of two moderators at once, one removes it and tells.
    const dropped = await dropAvatar(services, trx, memberId, now);
    if (!dropped) return null;
    return notify(
      trx,
      viewer.id,
      [{ memberId, kind: "moderation.picture", subject: `picture:${memberId}:${dropped}`, parent: null, title: "", url: "/settings" }],
      now,
    );
  });
  if (told === null) return fail(404, PICTURE_MESSAGES.missing);
  wrote(tag.member(memberId));
  await ringBells(services, told);
  return { ok: true, value: null };
}
