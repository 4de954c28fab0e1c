import * as z from "zod/mini";
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
 * A mail that must not be queued: a malformed recipient or header name. Callers validate their
 * input first (the forms' zod schemas), so reaching this is a bug, never a member's typo.
 */
export class InvalidMailError extends Error {
  override name = "InvalidMailError";
}

const addressSchema = z.email();
const CRLF = /[\r\n]/;
/** RFC 5322 field names: printable ASCII except the colon. */
const HEADER_NAME = /^[!-9;-~]+$/;

/** A strict recipient check: one plain address, no display name, nothing a header could split on. */
export function isMailAddress(value: string) {
  return value.length <= 254 && !CRLF.test(value) && addressSchema.safeParse(value).success;
}

/** CR and LF would start a new header line (header injection): a header value keeps one line. */
function oneLine(value: string) {
  return value.replace(/[\r\n]+/g, " ").trim();
}

type QueuedListener = () => void;
const queuedListeners = new Set<QueuedListener>();

/**
 * Lets this process's outbox worker wake soon after a mail is queued instead of at its next poll.
 * Returns the function that stops listening.
 */
export function onMailQueued(listener: QueuedListener) {
  queuedListeners.add(listener);
  return () => void queuedListeners.delete(listener);
}

/**
 * Queues a mail in the caller's transaction: it goes out only if the change that caused it commits,
 * and the outbox worker sends it, with retries, whether or not SMTP is up right now.
 * Returns false when a mail with the same dedupe key was already queued.
 * Throws InvalidMailError for a malformed recipient or header name; CR/LF in the subject and in
 * header values become spaces, so no field can add a header (a Bcc) to the message.
 */
export async function enqueueMail(db: Db, mail: QueuedMail, now = new Date()): Promise<boolean> {
  if (!isMailAddress(mail.to)) throw new InvalidMailError(`Not a mail address: ${JSON.stringify(mail.to.slice(0, 80))}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(mail.headers ?? {})) {
    if (!HEADER_NAME.test(name)) throw new InvalidMailError(`Not a header name: ${JSON.stringify(name.slice(0, 80))}`);
    headers[name] = oneLine(value);
  }
  const result = await db
    .insertInto("mail_outbox")
    .values({
      to_address: mail.to,
      subject: oneLine(mail.subject),
      text_body: mail.text,
      html_body: mail.html,
      headers: JSON.stringify(headers),
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
  const queued = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  if (queued) for (const listener of queuedListeners) listener();
  return queued;
}

/** How long a sent or given-up mail stays in the outbox (for support to look at) before it goes. */
export const OUTBOX_KEEP_DAYS = 30;

/** Mail not yet sent nor given up, and when the oldest of it was queued (the operators' metrics, issue 33). */
export async function outboxBacklog(db: Db): Promise<{ pending: number; oldestAt: Date | null }> {
  const row = await db
    .selectFrom("mail_outbox")
    .select((eb) => [eb.fn.countAll<number>().as("pending"), eb.fn.min("created_at").as("oldest")])
    .where("sent_at", "is", null)
    .where("failed_at", "is", null)
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), oldestAt: row.oldest === null ? null : new Date(row.oldest as string | Date) };
}

/**
 * Deletes the mail sent or given up before `before`: addresses and bodies are personal data, kept
 * no longer than support needs them. Due and leased rows are never touched. Reminders' dedupe keys
 * go with their rows, long after their events began, so none is queued twice. Returns how many went.
 */
export async function pruneOutbox(db: Db, before: Date): Promise<number> {
  const at = before.toISOString();
  const removed = await db
    .deleteFrom("mail_outbox")
    .where((eb) => eb.or([eb("sent_at", "<", at), eb("failed_at", "<", at)]))
    .executeTakeFirst();
  return Number(removed.numDeletedRows);
}
