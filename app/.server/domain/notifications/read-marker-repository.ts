import type { Executor } from "../../db/executor";

/**
 * How far a member has read a discussion or question (issue 28's "3 new" markers): the count they
 * saw and the last reply or answer they saw, by subject ("discussion:5").
 */
export async function readMarkersOf(db: Executor, memberId: string, subjects: string[]) {
  const markers = new Map<string, { seenCount: number; lastSeenId: number }>();
  if (subjects.length === 0) return markers;
  const rows = await db
    .selectFrom("read_marker")
    .select(["subject", "seen_count", "last_seen_id"])
    .where("member_id", "=", memberId)
    .where("subject", "in", subjects)
    .execute();
  for (const row of rows) markers.set(row.subject, { seenCount: Number(row.seen_count), lastSeenId: Number(row.last_seen_id) });
  return markers;
}

/**
 * Moves the marker forward to what the member has just been shown; never back (an earlier page
 * read later). Whether it moved: a page read again with nothing new writes nothing.
 */
export async function advanceReadMarker(trx: Executor, memberId: string, subject: string, seen: { count: number; lastId: number }, at: string) {
  const result = await trx
    .insertInto("read_marker")
    .values({ member_id: memberId, subject, seen_count: seen.count, last_seen_id: seen.lastId, read_at: at })
    .onConflict((oc) =>
      oc
        .columns(["member_id", "subject"])
        .doUpdateSet({ seen_count: seen.count, last_seen_id: seen.lastId, read_at: at })
        .where((eb) => eb.or([eb("read_marker.last_seen_id", "<", seen.lastId), eb("read_marker.seen_count", "!=", seen.count)]))
        .where("read_marker.last_seen_id", "<=", seen.lastId),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** How many visible replies of a discussion are at or before this one (what a reader of its page has seen). */
export async function visibleRepliesUpTo(db: Executor, discussionId: number, replyId: number) {
  const row = await db
    .selectFrom("reply")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("discussion_id", "=", discussionId)
    .where("id", "<=", replyId)
    .where("hidden_at", "is", null)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The member's watched discussions, most recently chosen first, up to `limit` (the dashboard's list). */
export async function watchedDiscussionIds(db: Executor, memberId: string, limit: number) {
  const rows = await db
    .selectFrom("watch")
    .select("subject")
    .where("member_id", "=", memberId)
    .where("level", "=", "watching")
    .where("subject", "like", "discussion:%")
    .orderBy("updated_at", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.subject.slice("discussion:".length))).filter((id) => Number.isSafeInteger(id) && id > 0);
}

/**
 * What a discussion's page needs of its signed-in reader, in one statement: their watching level,
 * their read marker, and the first reply by someone else after it (where they resume).
 */
export async function discussionReaderRow(db: Executor, memberId: string, discussionId: number) {
  const subject = `discussion:${discussionId}`;
  const marker = (column: "seen_count" | "last_seen_id") =>
    db.selectFrom("read_marker").select(column).where("member_id", "=", memberId).where("subject", "=", subject);
  return db
    .selectNoFrom((eb) => [
      eb.selectFrom("watch").select("level").where("member_id", "=", memberId).where("subject", "=", subject).as("level"),
      marker("seen_count").as("seen_count"),
      marker("last_seen_id").as("last_seen_id"),
      eb
        .selectFrom("reply")
        .select("reply.id")
        .where("reply.discussion_id", "=", discussionId)
        .where("reply.id", ">", marker("last_seen_id"))
        .where("reply.author_id", "!=", memberId)
        .where("reply.hidden_at", "is", null)
        .where("reply.deleted_at", "is", null)
        .orderBy("reply.id")
        .limit(1)
        .as("first_unread"),
    ])
    .executeTakeFirstOrThrow();
}
