import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { CreationType } from "~/lib/domain-values";
import { toIso } from "~/lib/dates";
import { mediaUrl } from "~/lib/media";
import { hiddenPostsView, postAsShown } from "../flags/under-review";
import { hiddenBadgeText, reviewNoteText, UNDER_REVIEW_TITLE } from "~/lib/flags";
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
  // Hidden ones come too: which of them this viewer sees, and how, is hiddenPostsView's (issue 31).
  const found = await findCreation(db, id, { includeHidden: true });
  const [row] = found ? await hiddenPostsView(db, viewer, "creation", [found]) : [];
  if (!row) return null;
  readsFrom(tag.creation(id));
  const [creation] = withAuthors([row]);
  // A creation the flags hid shows none of its words, pictures or comments.
  const veiled = row.veiled;
  const [comments, liked] = await Promise.all([
    veiled ? [] : listCreationComments(db, id, { includeHidden: true }).then(async (rows) => withAuthors(await hiddenPostsView(db, viewer, "comment", rows))),
    viewer ? hasLiked(db, id, viewer.id) : Promise.resolve(false),
  ]);
  return {
    creation: {
      id: creation.id,
      title: veiled ? UNDER_REVIEW_TITLE : creation.title,
      description: veiled ? "" : creation.description,
      type: creation.type,
      // null, not "", when the member wrote no words (ADR 0047): null survives the hydration data,
      // so server and browser agree there is no prose block (an empty string is left out of it).
      html: creation.body_html === "" || veiled ? null : creation.body_html,
      linkUrl: veiled ? null : creation.link_url,
      image:
        !veiled && creation.image_display_name && creation.image_name
          ? {
              src: mediaUrl(creation.image_display_name),
              full: mediaUrl(creation.image_name),
              width: creation.display_width === null ? null : Number(creation.display_width),
              height: creation.display_height === null ? null : Number(creation.display_height),
            }
          : null,
      audio: creation.audio_name && !veiled ? mediaUrl(creation.audio_name) : null,
      likes: Number(creation.like_count),
      comments: Number(creation.comment_count),
      createdAt: toIso(creation.created_at),
      edited: creation.edited_at !== null && !veiled,
      hidden: creation.hidden_at !== null,
      review: creation.review,
      veiled,
      note: viewer?.id === creation.author_id ? reviewNoteText(creation.review) : null,
      badge: hiddenBadgeText({ hidden: creation.hidden_at !== null, review: creation.review, veiled }),
      author: creation.author,
      authorId: creation.author_id,
      mine: viewer?.id === creation.author_id,
      liked,
    },
    comments: comments.map((c) => postAsShown(c, viewer)),
  };
}
