import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import { isModerator } from "../accounts/roles";
import { isPostImageFile } from "../writing/post-image-repository";

/**
 * Who may fetch a stored file (issue 25, item 6). Every file belongs to the creation that shows it:
 * while that creation shows, its files are public; while a moderator hides it, only moderators and
 * its author may fetch them, and never from a shared cache; a file no creation shows (deleted,
 * orphaned) is not served at all.
 */
export type MediaAccess = "public" | "private" | "none";

const MEDIA_COLUMNS = ["image_name", "image_display_name", "image_thumb_name", "audio_name"] as const;

/** One query, one index read per media column (migration 2026-11-26-0140). */
export async function mediaAccess(db: Db, name: string, viewer: Pick<Viewer, "id" | "role"> | null): Promise<MediaAccess> {
  const avatar = AVATAR_FILE.exec(name);
  if (avatar) return avatarAccess(db, avatar[1]);
  const owner = await db
    .selectFrom("creation")
    .select(["author_id", "hidden_at"])
    .where((eb) => eb.or(MEDIA_COLUMNS.map((column) => eb(column, "=", name))))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  // A picture in a post (ADR 0071) is public from its upload: its name is 128 random bits, and a
  // hidden post's page already keeps it from readers.
  if (!owner) return (await isPostImageFile(db, name)) ? "public" : "none";
  if (owner.hidden_at === null) return "public";
  return viewer && (viewer.id === owner.author_id || isModerator(viewer)) ? "private" : "none";
}

/** One size of a member's picture (ADR 0072); the group is the base `member.avatar` holds. */
const AVATAR_FILE = /^([0-9a-f]{32})-avatar(?:48|96|256)\.webp$/;

/**
 * A member's picture shows beside everything they write, to everyone: public while it is their
 * current one; a replaced or removed picture (its files are deleted with it) or a deleted
 * account's is served to no one.
 */
async function avatarAccess(db: Db, base: string): Promise<MediaAccess> {
  const owner = await db.selectFrom("member").select("id").where("avatar", "=", base).executeTakeFirst();
  return owner ? "public" : "none";
}
