import type { Db } from "../db/connect";

/** A mail as the domain asks for it: both parts always (PRODUCT.md §5). */
export interface QueuedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** What the mail is about ("newsletter-confirm", "event-reminder", …); for logs and tests. */
  kind: string;
  /** A mail with a key already queued is not queued again (a reminder goes out once). */
  dedupeKey?: string;
}

/**
 * Queues a mail in the caller's transaction: it goes out only if the change that caused it commits,
 * and the outbox worker sends it, with retries, whether or not SMTP is up right now.
 * Returns false when a mail with the same dedupe key was already queued.
 */
export async function enqueueMail(db: Db, mail: QueuedMail, now = new Date()): Promise<boolean> {
  const result = await db
    .insertInto("mail_outbox")
    .values({
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      headers: JSON.stringify(mail.headers ?? {}),
      kind: mail.kind,
      dedupe_key: mail.dedupeKey ?? null,
      next_attempt_at: now.toISOString(),
      sent_at: null,
      failed_at: null,
      last_error: null,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
