import type { Viewer } from "../../context";
import type { Executor } from "../../db/executor";
import { encodeActivityCursor, type ActivityCursor } from "../../pagination";
import { memberTimeZone } from "../accounts/member-repository";
import { isModerator } from "../accounts/roles";
import { postKey, postPlaces, type PostRef } from "../posts/post-places";
import { toIso } from "~/lib/dates";
import { SEARCH_KINDS } from "~/lib/search";
import { utcToZoned } from "~/lib/time-zones";
import { bookmarkedAmong, bookmarksOf } from "./bookmark-repository";

/** Bookmarks on one page of /bookmarks. */
export const BOOKMARKS_PAGE_SIZE = 20;

export interface BookmarkItem {
  id: number;
  kind: PostRef["kind"];
  postId: number;
  kindLabel: string;
  /** Null when the post is no longer there for the member (deleted, or hidden by a moderator). */
  place: { title: string; url: string; where: string } | null;
  note: string;
  /** The reminder's day on the member's calendar, and whether it was sent. */
  remindOn: string | null;
  reminded: boolean;
  createdAt: string;
}

const KIND_ONE = Object.fromEntries(SEARCH_KINDS.map((k) => [k.id, k.one])) as Record<string, string>;

/** /bookmarks (never kept): the member's bookmarks, newest first, with where each post is now. */
export async function bookmarksPage(db: Executor, viewer: Viewer, before: ActivityCursor | null) {
  const [rows, zone] = await Promise.all([bookmarksOf(db, viewer.id, BOOKMARKS_PAGE_SIZE + 1, before), memberTimeZone(db, viewer.id)]);
  const shown = rows.slice(0, BOOKMARKS_PAGE_SIZE);
  const places = await postPlaces(
    db,
    shown.map((b) => ({ kind: b.kind, id: b.post_id })),
  );
  const moderator = isModerator(viewer);
  const items: BookmarkItem[] = shown.map((b) => {
    const place = places.get(postKey({ kind: b.kind, id: b.post_id }));
    const readable = place && !place.deleted && (!place.hidden || moderator);
    return {
      id: b.id,
      kind: b.kind,
      postId: b.post_id,
      kindLabel: KIND_ONE[b.kind] ?? b.kind,
      place: readable ? { title: place.title, url: place.url, where: place.where } : null,
      note: b.note,
      remindOn: b.remind_at ? utcToZoned(new Date(toIso(b.remind_at)), zone).slice(0, 10) : null,
      reminded: b.reminded_at !== null,
      createdAt: toIso(b.created_at),
    };
  });
  const last = items[items.length - 1];
  return { items, older: rows.length > BOOKMARKS_PAGE_SIZE && last ? encodeActivityCursor({ at: last.createdAt, id: last.id }) : null };
}

/**
 * Which of a page's posts the member bookmarked, as `postKey`s, for its Bookmark buttons. Theirs
 * alone: a member's kept page reads `tag.viewer`, which each of their writes drops (ADR 0040).
 */
export async function viewerBookmarks(db: Executor, viewer: Viewer | null, posts: readonly PostRef[]): Promise<string[]> {
  if (!viewer || posts.length === 0) return [];
  return (await bookmarkedAmong(db, viewer.id, posts)).map((b) => postKey({ kind: b.kind, id: b.post_id }));
}
