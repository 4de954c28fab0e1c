import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import { changedByRead, readsFrom, tag } from "../../cache/page-tags";
import { advanceReadMarker, discussionReaderRow, readMarkersOf, visibleRepliesUpTo, watchedDiscussionIds } from "./read-marker-repository";

/**
 * What is new to a member since they last read a discussion or question (issue 28, item 4): lists
 * say "3 new", a discussion opens at its first unread reply, and the dashboard lists the watched
 * discussions with new replies. A marker moves when the member is shown a page; that is a GET's
 * side effect, so it says which of the member's kept pages it changed (those that read `tag.unread`).
 */

export interface ReadMarker {
  seenCount: number;
  lastSeenId: number;
}

/**
 * After a page of a discussion was shown: the marker moves to its last reply (the whole count on the
 * last page). `known`, the marker as the page read it: nothing is written when it is already there.
 */
export async function markDiscussionRead(
  db: Db,
  viewer: Viewer,
  discussion: { id: number; replies: number },
  shown: { lastReplyId: number | null; lastPage: boolean },
  known?: ReadMarker | null,
) {
  const lastId = shown.lastReplyId ?? 0;
  if (known && known.lastSeenId >= lastId && (!shown.lastPage || known.seenCount === discussion.replies)) return;
  const count = shown.lastPage ? discussion.replies : await visibleRepliesUpTo(db, discussion.id, lastId);
  await moveMarker(db, viewer, `discussion:${discussion.id}`, { count, lastId });
}

/**
 * A discussion's signed-in reader, in one statement (the page's own three reads are the session, the
 * discussion and its replies): their watching level, their marker and where they resume, if anywhere.
 */
export async function discussionReader(db: Db, viewer: Viewer | null, discussionId: number) {
  if (!viewer) return null;
  readsFrom(tag.unread(viewer.id));
  const row = await discussionReaderRow(db, viewer.id, discussionId);
  const marker = row.last_seen_id === null || row.seen_count === null ? null : { seenCount: Number(row.seen_count), lastSeenId: Number(row.last_seen_id) };
  return {
    watch: row.level ?? ("normal" as const),
    marker,
    // One's own replies are not news: a member who replied and left is not sent back to them.
    // A marker before any reply (0) resumes on the first page, which the discussion opens at anyway.
    resume: marker && marker.lastSeenId > 0 && row.first_unread !== null ? { after: marker.lastSeenId, replyId: Number(row.first_unread) } : null,
  };
}

/** After a question's page was shown (every answer is on it). */
export async function markQuestionRead(db: Db, viewer: Viewer, question: { id: number; answers: number; lastAnswerId: number | null }) {
  await moveMarker(db, viewer, `question:${question.id}`, { count: question.answers, lastId: question.lastAnswerId ?? 0 });
}

async function moveMarker(db: Db, viewer: Viewer, subject: string, seen: { count: number; lastId: number }) {
  if (await advanceReadMarker(db, viewer.id, subject, seen, new Date().toISOString())) changedByRead(tag.unread(viewer.id));
}

/**
 * How many are new in each listed discussion or question for the member: its count now less the
 * count they saw; absent for one they never opened (all of it is new: the list says so otherwise).
 */
export async function newSince(db: Db, viewer: Viewer | null, kind: "discussion" | "question", items: ReadonlyArray<{ id: number; count: number }>) {
  const fresh = new Map<number, number>();
  if (!viewer || items.length === 0) return fresh;
  readsFrom(tag.unread(viewer.id));
  const markers = await readMarkersOf(
    db,
    viewer.id,
    items.map((i) => `${kind}:${i.id}`),
  );
  for (const item of items) {
    const marker = markers.get(`${kind}:${item.id}`);
    if (marker) fresh.set(item.id, Math.max(0, item.count - marker.seenCount));
  }
  return fresh;
}

/** The member's watched discussions (the latest 50 chosen), for the dashboard to list those with new replies. */
export function watchedDiscussions(db: Db, viewer: Viewer) {
  return watchedDiscussionIds(db, viewer.id, 50);
}
