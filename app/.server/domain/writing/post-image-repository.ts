import type { Executor } from "../../db/executor";

/** The stored images of posts (issue 32, ADR 0071): each names its three media files. */

export async function insertPostImage(
  db: Executor,
  image: { displayName: string; fullName: string; thumbName: string; width: number; height: number; ownerId: string; at: string },
) {
  await db
    .insertInto("post_image")
    .values({
      display_name: image.displayName,
      full_name: image.fullName,
      thumb_name: image.thumbName,
      width: image.width,
      height: image.height,
      owner_id: image.ownerId,
      created_at: image.at,
      attached_at: null,
    })
    .execute();
}

/** Marks the images a saved post shows as taken, so the sweep leaves them. */
export async function attachPostImages(db: Executor, displayNames: readonly string[], at: string) {
  if (displayNames.length === 0) return;
  await db.updateTable("post_image").set({ attached_at: at }).where("display_name", "in", displayNames).where("attached_at", "is", null).execute();
}

/** Whether a media file is one of a post image's three. */
export async function isPostImageFile(db: Executor, name: string) {
  const row = await db
    .selectFrom("post_image")
    .select("display_name")
    .where((eb) => eb.or([eb("display_name", "=", name), eb("full_name", "=", name), eb("thumb_name", "=", name)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Images no post took, uploaded before `before`, oldest first. */
export async function unattachedPostImages(db: Executor, before: string, limit: number) {
  return db
    .selectFrom("post_image")
    .select(["display_name", "full_name", "thumb_name"])
    .where("attached_at", "is", null)
    .where("created_at", "<", before)
    .orderBy("created_at")
    .limit(limit)
    .execute();
}

/**
 * Deletes those of the images that are still untaken, and says which: a post saved since they were
 * read took its images, and keeps them.
 */
export async function deleteUntakenPostImages(db: Executor, displayNames: readonly string[]) {
  if (displayNames.length === 0) return [];
  return db
    .deleteFrom("post_image")
    .where("display_name", "in", displayNames)
    .where("attached_at", "is", null)
    .returning(["display_name", "full_name", "thumb_name"])
    .execute();
}
