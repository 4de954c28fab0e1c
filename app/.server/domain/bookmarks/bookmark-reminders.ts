import type { AppServices } from "../../context";
import type { Db } from "../../db/connect";
import { notify, ringBells } from "../notifications/notification-service";
import { postKey, postPlaces } from "../posts/post-places";
import { claimBookmarkReminder, dueBookmarkReminders } from "./bookmark-repository";

/** Reminders sent per tick: a backlog is worked through over several ticks. */
const BATCH = 200;

/**
 * "Remind me of this post" (issue 30): each due reminder becomes a notification once, claimed in
 * the same transaction that writes it, so two instances never send one twice. A post deleted or
 * hidden since has nothing to remind of: its reminder is claimed and dropped.
 */
export async function remindBookmarks(db: Db, now: Date, limit = BATCH) {
  const at = now.toISOString();
  const due = await dueBookmarkReminders(db, at, limit);
  if (due.length === 0) return { reminded: 0, told: [] as string[] };
  const places = await postPlaces(
    db,
    due.map((b) => ({ kind: b.kind, id: b.post_id })),
  );
  const told = await db.transaction().execute(async (trx) => {
    const told: string[] = [];
    for (const b of due) {
      if (!(await claimBookmarkReminder(trx, b.id, at))) continue;
      const place = places.get(postKey({ kind: b.kind, id: b.post_id }));
      if (!place || place.deleted || place.hidden) continue;
      const notice = { memberId: b.member_id, kind: "bookmark" as const, subject: `${b.kind}:${b.post_id}`, parent: null, title: place.title, url: place.url };
      told.push(...(await notify(trx, null, [notice], now)));
    }
    return told;
  });
  return { reminded: told.length, told };
}

/** The reminders as a job of the outbox worker's tick; after the commit, the reminded members' bells ring. */
export function bookmarkReminderJob(limit = BATCH) {
  return async (db: Db, now: Date, services?: AppServices) => {
    const batch = await remindBookmarks(db, now, limit);
    if (services) await ringBells(services, batch.told);
    return batch.reminded;
  };
}
