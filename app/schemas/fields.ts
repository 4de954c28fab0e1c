/**
 * The limits and field names that forms show and schemas check, without zod: a page imports them from
 * here, and fetches its schema (and zod) only after hydration (use-validated-form.ts, ADR 0029). The
 * schema modules re-export them, so server code may keep importing them from there.
 */

// forum.ts
export const TITLE_MIN = 8;
export const TITLE_MAX = 150;
export const BODY_MAX = 20_000;

/** Under every box that takes member Markdown: what the one renderer (app/.server/markdown.ts) formats. */
export const MARKDOWN_HELP = "Markdown works: **bold**, *italic*, [links](https://example.org), lists and quotes.";

// creation-comment.ts
export const COMMENT_MAX = 2_000;

// council.ts
export const QUESTION_LISTS = ["virtues"] as const;

// challenges.ts
export const CHALLENGE_TITLE_MIN = 8;
export const CHALLENGE_TITLE_MAX = 100;
export const CHALLENGE_DESCRIPTION_MIN = 20;
export const CHALLENGE_DESCRIPTION_MAX = 1000;
/** A challenge lasts one day to a year; its check-ins are as many (the form's number fields take both). */
export const CHALLENGE_NUMBER_MIN = 1;
export const CHALLENGE_LENGTH_MAX = 365;
export const CHALLENGE_LISTS = ["virtues"] as const;

// events.ts
export const EVENT_TITLE_MIN = 8;
export const EVENT_TITLE_MAX = 150;
export const EVENT_DESCRIPTION_MAX = 5_000;
export const EVENT_PLACE_MAX = 200;
export const EVENT_URL_MAX = 500;
export const EVENT_CAPACITY_MAX = 1_000;

// forge.ts
export const CREATION_TITLE_MIN = 3;
export const CREATION_TITLE_MAX = 120;
export const DESCRIPTION_MAX = 500;
export const LINK_MAX = 2000;
/** Upload limits (PRODUCT.md §7); checked while the body streams in, never after reading it whole. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const AUDIO_MAX_BYTES = 20 * 1024 * 1024;
/**
 * The largest body an upload route takes (ADR 0020): one audio file at its limit and the text
 * fields. Routes declare it in their `handle` (server/http.ts reads it for the route a request
 * matches, so it lives outside server-only code); every other route keeps the global 1 MB.
 */
export const UPLOAD_BODY_LIMIT = 21 * 1024 * 1024;
/** The settings page's largest post: a profile picture at the image limit and the form's framing (ADR 0072). */
export const AVATAR_BODY_LIMIT = IMAGE_MAX_BYTES + 64 * 1024;

// events.ts, account.ts
/**
 * What a one-line field (a title, a place, a name) refuses: C0 and C1 control characters (line
 * feed, tab, NUL, next line…) and Unicode's line and paragraph separators. Such a field reaches
 * mail subjects and bodies, calendar files and headings, where any of them breaks a line.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point here
export const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// account.ts
export const INTERESTS = [
  { id: "meditation", label: "Meditation & Inner Peace" },
  { id: "fitness", label: "Fitness & Strength" },
  { id: "philosophy", label: "Philosophy & Wisdom" },
  { id: "creativity", label: "Creative Expression" },
] as const;
export type InterestId = (typeof INTERESTS)[number]["id"];
export const INTEREST_CHECKBOXES = INTERESTS.map((i) => `interests.${i.id}`);
export const JOIN_CHECKBOXES = [...INTEREST_CHECKBOXES, "termsAccepted"] as const;
export const SIGN_IN_CHECKBOXES = ["rememberMe"] as const;

// settings.ts
/** A kind of notification's two checkboxes, "notify.reply.site" and "notify.reply.mail" (issue 28). */
export function notificationField(kind: string, channel: "site" | "mail") {
  return `notify.${kind}.${channel}`;
}
