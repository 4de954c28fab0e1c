import { wroteNothingPublic } from "../../cache/page-tags";
import type { AppServices, Viewer } from "../../context";
import { lockKeys } from "../../db/lock-keys";
import { isModerator } from "../accounts/roles";
import { memberTimeZone } from "../accounts/member-repository";
import { fail, writeAllowed, type Outcome } from "../outcome";
import { specOf } from "../posts/post-kinds";
import { postKey, postPlaces, type PostRef } from "../posts/post-places";
import { BOOKMARKS_MAX } from "~/lib/limits";
import { zonedToUtc } from "~/lib/time-zones";
import type { BookmarkValues } from "~/schemas/bookmarks";
import { countBookmarks, deleteBookmark, findBookmark, insertBookmark, updateBookmark } from "./bookmark-repository";

/**
 * Bookmarks (issue 30): a member keeps any post they can read, with a note and a reminder of their
 * own. Nobody else sees them, so a bookmark changes no public page: only the member's own kept pages
 * (their Bookmark buttons), which every write of theirs drops (`tag.viewer`, ADR 0040).
 */

export const BOOKMARK_MESSAGES = {
  full: `You have ${BOOKMARKS_MAX.toLocaleString("en-US")} bookmarks. Remove some to add more.`,
  missing: "Bookmark not found",
  past: "Choose a day after today for the reminder",
};

/** The hour of the reminder's day, on the member's clock. */
export const REMINDER_HOUR = "09:00";

export async function addBookmark(services: AppServices, viewer: Viewer, post: PostRef, now = new Date()): Promise<Outcome<{ added: boolean }>> {
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  // Only what the member can read: not deleted, and hidden only for a moderator.
  const place = (await postPlaces(services.db, [post])).get(postKey(post));
  if (!place || place.deleted || (place.hidden && !isModerator(viewer))) return fail(404, specOf(post.kind).missing);
  wroteNothingPublic();
  return services.db.transaction().execute(async (trx) => {
    // Counted and added as one step: parallel adds cannot pass the cap together (ADR 0013).
    await lockKeys(trx, [`bookmarks:${viewer.id}`]);
    if ((await countBookmarks(trx, viewer.id)) >= BOOKMARKS_MAX) return fail(409, BOOKMARK_MESSAGES.full);
    return { ok: true as const, value: { added: await insertBookmark(trx, viewer.id, post, now.toISOString()) } };
  });
}

export async function removeBookmark(services: AppServices, viewer: Viewer, post: PostRef): Promise<Outcome<null>> {
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  wroteNothingPublic();
  await deleteBookmark(services.db, viewer.id, post);
  return { ok: true, value: null };
}

/** The member's note and reminder day; a new day means a new reminder, even after one was sent. */
export async function saveBookmark(services: AppServices, viewer: Viewer, id: number, values: BookmarkValues, now = new Date()): Promise<Outcome<null>> {
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  const bookmark = await findBookmark(services.db, viewer.id, id);
  if (!bookmark) return fail(404, BOOKMARK_MESSAGES.missing);
  let remindAt: string | null = null;
  if (values.remindOn) {
    const at = zonedToUtc(`${values.remindOn}T${REMINDER_HOUR}`, await memberTimeZone(services.db, viewer.id));
    if (!at || at.getTime() <= now.getTime()) return fail(400, BOOKMARK_MESSAGES.past, "remindOn");
    remindAt = at.toISOString();
  }
  wroteNothingPublic();
  await updateBookmark(services.db, viewer.id, id, { note: values.note, remind_at: remindAt });
  return { ok: true, value: null };
}
