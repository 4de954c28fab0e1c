import type { Db } from "../../db/connect";
import { enqueueMail } from "../../mail/outbox";
import { reminderMail } from "./event-mails";
import { goingMembersOfEventsStarting } from "./event-repository";

/** Going members hear about an event this long before it starts (PRODUCT.md §4). */
export const REMINDER_LEAD_MS = 24 * 60 * 60 * 1000;

/**
 * Queues a reminder for every going member of every event that starts within the next 24 hours
 * and has not started yet. Run on every tick of the outbox worker: the dedupe key (one per event
 * and member) makes a reminder go out once however often it runs, and on however many instances.
 * Returns how many reminders it queued this time.
 */
export async function enqueueDueReminders(db: Db, now: Date, baseUrl: string): Promise<number> {
  const due = await goingMembersOfEventsStarting(db, now.toISOString(), new Date(now.getTime() + REMINDER_LEAD_MS).toISOString());
  if (due.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    let queued = 0;
    for (const row of due) {
      const event = {
        id: Number(row.event_id),
        title: row.title,
        starts_at: row.starts_at,
        time_zone: row.time_zone,
        online_url: row.online_url,
        place: row.place,
      };
      const member = { id: row.member_id, name: row.name, email: row.email, time_zone: row.member_time_zone };
      if (await enqueueMail(trx, reminderMail(baseUrl, event, member), now)) queued += 1;
    }
    return queued;
  });
}

/** The reminder as a job for the outbox worker's tick, which calls each job with (db, now). */
export const reminderJob = (baseUrl: string) => (db: Db, now: Date) => enqueueDueReminders(db, now, baseUrl);
