import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import { isModerator } from "../accounts/roles";
import { authorMayChangeHidden } from "../flags/under-review";
import { toIso } from "~/lib/dates";
import { postKey, postPlaces, type PostRef } from "./post-places";
import { currentVersion, findPost } from "./post-repository";
import { revisionsOf } from "./revision-repository";

/**
 * A post's edit history (issue 32): where it is, when it was posted and last edited, and each kept
 * edit, newest first, with the words it removed and added (markup made when the edit was written).
 * Anyone who may read the post may read its history: a hidden one, the moderators (and its author
 * while it waits on /review); a deleted one, nobody. Null when the viewer may not.
 */
export async function postHistory(db: Db, viewer: Viewer | null, post: PostRef) {
  const place = (await postPlaces(db, [post])).get(postKey(post));
  if (!place || place.deleted) return null;
  if (place.hidden && !isModerator(viewer)) {
    const row = await findPost(db, post.kind, post.id);
    const ownUnderReview = row !== undefined && viewer?.id === row.author_id && (await authorMayChangeHidden(db, post.kind, post.id));
    if (!ownUnderReview) return null;
  }
  const [current, revisions] = await Promise.all([currentVersion(db, post.kind, post.id), revisionsOf(db, post.kind, post.id)]);
  if (!current) return null;
  return {
    title: place.title,
    url: place.url,
    where: place.where,
    postedAt: toIso(current.createdAt),
    editedAt: current.editedAt === null ? null : toIso(current.editedAt),
    edits: revisions.map((r) => ({ id: Number(r.id), at: toIso(r.replaced_at), diffHtml: r.diff_html })),
  };
}
