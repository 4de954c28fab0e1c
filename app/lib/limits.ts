// Rate limits (PRODUCT.md §7): the one source that the services enforce and the pages (privacy,
// /ranks) state. Each is `max` events per `windowMs`, counted per key in the database
// (rate-limit.ts, ADR 0008).

const MINUTE = 60 * 1000;

/** A burst limit on every member's writes (posts, answers, edits), against scripts and accidents. */
export const WRITE_LIMIT = { max: 30, windowMs: 10 * MINUTE };

/** 10 failed sign-ins per 15 minutes per address and per IP. */
export const SIGN_IN_LIMIT = 10;
export const SIGN_IN_WINDOW_MS = 15 * MINUTE;

/** At most 5 joins an hour per IP (Discourse's anchor: max_new_accounts_per_registration_ip). */
export const JOIN_LIMIT = 5;
export const JOIN_WINDOW_MS = 60 * MINUTE;

/** Password reset mails: 3 an hour per address (no mailbox flooding), 10 an hour per IP. */
export const RESET_EMAIL_LIMIT = { max: 3, windowMs: 60 * MINUTE };
export const RESET_IP_LIMIT = { max: 10, windowMs: 60 * MINUTE };
