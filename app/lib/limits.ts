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

/** The mail telling an address's owner that someone tried to join with it: once an hour per address. */
export const JOIN_ATTEMPT_MAIL_LIMIT = { max: 1, windowMs: 60 * MINUTE };

/** Password reset mails: 3 an hour per address (no mailbox flooding), 10 an hour per IP. */
export const RESET_EMAIL_LIMIT = { max: 3, windowMs: 60 * MINUTE };
export const RESET_IP_LIMIT = { max: 10, windowMs: 60 * MINUTE };

/** Settings forms that ask for the password (email change, password change, deletion): sign-in's numbers, per member. */
export const PASSWORD_CHECK_LIMIT = { max: SIGN_IN_LIMIT, windowMs: SIGN_IN_WINDOW_MS };

/** Mails confirming a new address: 5 an hour per member (no mailbox flooding through settings). */
export const EMAIL_CHANGE_LIMIT = { max: 5, windowMs: 60 * MINUTE };

/** Mailed sign-in links (ADR 0042): one every 5 minutes per address, 10 an hour per IP; each works 15 minutes. */
export const SIGN_IN_LINK_EMAIL_LIMIT = { max: 1, windowMs: 5 * MINUTE };
export const SIGN_IN_LINK_IP_LIMIT = { max: 10, windowMs: 60 * MINUTE };
export const SIGN_IN_LINK_MS = 15 * MINUTE;

/**
 * Images decoded for one member: 20 an hour, whether they are then kept or refused (ADR 0043). A
 * file refused after decoding (cut short, too slow) changes nothing else, so without this a member
 * could keep the image slots busy with such files one after another.
 */
export const IMAGE_DECODE_LIMIT = { max: 20, windowMs: 60 * MINUTE };

/**
 * Reactions and likes from one member (issue 31): 30 a minute, quick clicking and changing one's mind
 * many times over, not a script's 1,000. Apart from WRITE_LIMIT, so reacting never costs a reply.
 */
export const REACTION_LIMIT = { max: 30, windowMs: MINUTE };

/** Searches: 60 a minute per IP (issue 30), a person's pace many times over, not a scraper's. */
export const SEARCH_LIMIT = { max: 60, windowMs: MINUTE };

/** Markdown previews (issue 32): 60 a minute per member, a writer's pace while switching tabs, not a renderer for hire. */
export const PREVIEW_LIMIT = { max: 60, windowMs: MINUTE };

/** Drafts sent by a member's editor (issue 32): one every 5 s while typing, with room for several tabs. */
export const DRAFT_LIMIT = { max: 30, windowMs: MINUTE };

/** Bookmarks one member keeps (issue 30): far more than anyone reads again, few enough to list. */
export const BOOKMARKS_MAX = 5_000;

/** The longest note a member keeps with a bookmark. */
export const BOOKMARK_NOTE_MAX = 500;
