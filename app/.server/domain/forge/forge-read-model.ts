import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { CreationType } from "~/lib/domain-values";
import { toIso } from "~/lib/dates";
import { mediaUrl } from "~/lib/media";
import { isModerator } from "../accounts/roles";
import { encodeActivityCursor, type ActivityCursor, type PageRequest } from "../../pagination";
import { readsFrom, tag } from "../../cache/page-tags";
import { withAuthors } from "../progression/authors";
import { creationPageRows, findCreation, hasLiked, listCategories, listCreationComments, recentCreations } from "./forge-repository";

export { listCategories };

type CreationRow = Awaited<ReturnType<typeof recentCreations>>[number];

/** Creation cards: authors with ranks in one query for all the rows, and the thumbnail if any. */
async function summarise(db: Db, creationRows: CreationRow[]) {
  // Any creation, like or comment changes the lists (a new card, a count).
  readsFrom(tag.forge);
  const rows = withAuthors(creationRows);
  return rows.map((c) => ({
    id: c.id,
    title: c.title,
    description: c.description,
    type: c.type,
    likes: Number(c.like_count),
    comments: Number(c.comment_count),
    author: c.author,
    createdAt: toIso(c.created_at),
    thumbnail:
      c.image_thumb_name && c.thumb_width && c.thumb_height
        ? { src: mediaUrl(c.image_thumb_name), width: Number(c.thumb_width), height: Number(c.thumb_height) }
        : null,
  }));
}

export async function creationSummaries(db: Db, options: { limit?: number; type?: CreationType } = {}) {
  return summarise(db, await recentCreations(db, options));
}

export const CREATIONS_PER_PAGE = 12;

/** The Forge's list, newest first, one keyset page at a time (cursor on created_at and id). */
export async function creationFeed(db: Db, type: CreationType | undefined, request: PageRequest<ActivityCursor>, limit = CREATIONS_PER_PAGE) {
  const page = await creationPageRows(db, type, request, limit);
  const creations = await summarise(db, page.rows);
  const cursorOf = (c: { id: number; createdAt: string }) => encodeActivityCursor({ at: c.createdAt, id: c.id });
  return {
    creations,
    newer: page.hasNewer && creations.length ? `before=${cursorOf(creations[0])}` : null,
    older: page.hasOlder && creations.length ? `after=${cursorOf(creations[creations.length - 1])}` : null,
  };
}

/**
 * A creation's page: the work with its media, the author, and the comments; for a member, whether
 * they liked it and which comments are theirs. A moderator also sees (and may restore) a hidden one.
 */
export async function creationWithComments(db: Db, id: number, viewer: Viewer | null = null) {
  const moderator = viewer !== null && isModerator(viewer);
  const row = await findCreation(db, id, { includeHidden: moderator });
  if (!row) return null;
  readsFrom(tag.creation(id));
  const [creation] = withAuthors([row]);
  const [comments, liked] = await Promise.all([
    listCreationComments(db, id, { includeHidden: moderator }).then((rows) => withAuthors(rows)),
    viewer ? hasLiked(db, id, viewer.id) : Promise.resolve(false),
  ]);
  return {
    creation: {
      id: creation.id,
      title: creation.title,
      description: creation.description,
      type: creation.type,
      // null, not "", when the member wrote no words (ADR 0047): null survives the hydration data,
      // so server and browser agree there is no prose block (an empty string is left out of it).
      html: creation.body_html === "" ? null : creation.body_html,
      linkUrl: creation.link_url,
      image:
        creation.image_display_name && creation.image_name
          ? {
              src: mediaUrl(creation.image_display_name),
              full: mediaUrl(creation.image_name),
              width: creation.display_width === null ? null : Number(creation.display_width),
              height: creation.display_height === null ? null : Number(creation.display_height),
            }
          : null,
      audio: creation.audio_name ? mediaUrl(creation.audio_name) : null,
      likes: Number(creation.like_count),
      comments: Number(creation.comment_count),
      createdAt: toIso(creation.created_at),
      edited: creation.edited_at !== null,
      hidden: creation.hidden_at !== null,
      author: creation.author,
      mine: viewer?.id === creation.author_id,
      liked,
    },
    comments: comments.map((c) => ({
      id: c.id,
      html: c.deleted_at ? null : c.body_html,
      body: c.deleted_at || viewer?.id !== c.author_id ? null : c.body,
      createdAt: toIso(c.created_at),
      edited: c.edited_at !== null,
      deleted: c.deleted_at !== null,
      hidden: c.hidden_at !== null,
      mine: viewer?.id === c.author_id,
      author: c.author,
      authorId: c.author_id,
    })),
  };
}
