import type { Database } from "../db/schema";
import type { tag } from "./page-tags";

/**
 * Which tables each kind of page-cache tag stands for (ADR 0051), for the cache audit: a kept page
 * that read a table must have read a tag covering it, and a write that changed a table must have
 * named one. Worked out from what the writers name (the domain services' `wrote`), never widened to
 * quiet the audit: a table belongs to a tag kind when every write of it that a page of that kind
 * shows names that kind. The audit checks tables, not rows: `discussion:7` covers the `reply`
 * table, whichever discussion a reply is in.
 *
 * A new table goes in `TABLES` (the type refuses to compile until it does) and then either under
 * each tag kind whose pages show its rows, or in `HIDDEN_TABLES` with the reason no kept page needs
 * a tag for it. A new tag kind (in `tag`) gets an entry here with the tables its writes stand for.
 */

export type Table = keyof Database;
export type TagKind = Exclude<keyof typeof tag, "nothing" | "site">;

/** Every table of the schema, at run time (the SQL the audit sees names tables, not types). */
export const TABLES = {
  challenge: true,
  challenge_virtue: true,
  challenge_attempt: true,
  challenge_check_in: true,
  member: true,
  session: true,
  account: true,
  verification: true,
  topic: true,
  topic_member: true,
  discussion: true,
  reply: true,
  reply_hour: true,
  creation: true,
  creation_like: true,
  creation_comment: true,
  creation_type_count: true,
  media: true,
  mail_outbox: true,
  question: true,
  question_virtue: true,
  answer: true,
  advisor: true,
  xp_event: true,
  newsletter_subscription: true,
  rate_limit_hit: true,
  trusted_device: true,
  sign_in_link: true,
  moderation_action: true,
  helpful_vote: true,
  question_view: true,
  event: true,
  event_rsvp: true,
  notification: true,
  watch: true,
  member_mute: true,
  notification_setting: true,
  read_marker: true,
  search_document: true,
  bookmark: true,
  reaction: true,
  reaction_count: true,
  flag: true,
  review_item: true,
  member_block: true,
  post_revision: true,
  draft: true,
  post_image: true,
} as const satisfies Record<Table, true>;

// Every post, event and challenge moves its search index row with it (issue 30), under its own tags.
const FORUM_POSTS: Table[] = ["discussion", "reply", "search_document"];
const COUNCIL_POSTS: Table[] = ["question", "question_virtue", "answer", "search_document"];
const FORGE_POSTS: Table[] = ["creation", "creation_comment", "creation_like", "media", "search_document"];
const CHALLENGES: Table[] = ["challenge", "challenge_virtue", "challenge_attempt", "challenge_check_in", "search_document"];
const EVENTS: Table[] = ["event", "event_rsvp", "search_document"];

export const TAG_COVERAGE: Readonly<Record<TagKind, readonly Table[]>> = {
  // Topics, who joined them, and the posts under them (the posting pipeline's page tags; joining).
  section: ["topic", "topic_member", ...FORUM_POSTS],
  topic: ["topic", "topic_member", ...FORUM_POSTS],
  // A post page shows each of its posts' reaction counts (issue 31); a reaction names the page's tag.
  discussion: [...FORUM_POSTS, "reaction_count"],
  // The question list and the advisors' badges on it (an advisor granted writes `council`).
  council: [...COUNCIL_POSTS, "advisor"],
  // One question's page: its answers, helpful votes and view count (counted views: changedByRead).
  question: [...COUNCIL_POSTS, "helpful_vote", "question_view", "reaction_count"],
  // The Forge's list and its category counts (kept at write time, ADR 0036).
  forge: [...FORGE_POSTS, "creation_type_count"],
  creation: [...FORGE_POSTS, "reaction_count"],
  events: EVENTS,
  event: EVENTS,
  challenges: CHALLENGES,
  challenge: CHALLENGES,
  // A member as an author anywhere: name, rank (standing), advisor badge, picture (its files are
  // stored and deleted with the member row that names them, ADR 0072).
  member: ["member", "advisor", "media"],
  // Their profile page: exact XP, their latest posts (every post names it) and their virtue levels,
  // counted from completed challenge attempts (a completion awards XP, which names it).
  // Every post names its author's profile (the posting pipeline), comments included (issue 30's tabs).
  profile: ["member", "xp_event", ...FORUM_POSTS, "question", "answer", "creation", "creation_comment", "challenge_attempt"],
  // What a member's own kept pages show of them alone: each of their writes names it (ADR 0040).
  // Their watching levels, mutes and read markers are theirs alone too (issue 28).
  viewer: [
    "member",
    "topic_member",
    "event_rsvp",
    "creation_like",
    "helpful_vote",
    "challenge_attempt",
    "challenge_check_in",
    "advisor",
    "watch",
    "member_mute",
    // Their bookmarks (issue 30): the Bookmark buttons on post pages say which posts they kept.
    "bookmark",
    // Their own reactions (issue 31): the bar's pressed buttons.
    "reaction",
    // Whom they blocked and who blocked them (issue 31): a block names both members' viewer tags.
    "member_block",
  ],
  // A post page's related posts (issue 30): the index and the places of the posts it lists.
  related: ["search_document", "discussion", "topic", "question", "creation"],
  // How far the member has read (issue 28): moved by their own reading, read by the pages that say "new".
  unread: ["read_marker"],
};

/** Tables no kept page needs a tag for, and why. */
export const HIDDEN_TABLES: Readonly<Partial<Record<Table, string>>> = {
  session: "a member's kept page is checked against its session row on every hit (ADR 0040), and no page shows another's",
  account: "credentials: no page shows them",
  verification: "one-time tokens of Better Auth: no page shows them",
  mail_outbox: "mail waiting to be sent: no page shows it",
  rate_limit_hit: "counters of the rate limits (ADR 0008): they refuse requests, no page shows them",
  trusted_device: "the sign-in link's remembered devices (ADR 0042): read by the sign-in flow, which is never kept",
  sign_in_link: "one-time sign-in links: their pages are never kept",
  newsletter_subscription: "addresses: shown only on the settings page, which is never kept",
  moderation_action: "the moderators' log: no page shows it (the post it hid names its page tags)",
  flag: "members' flags: shown only on /review and the flag form, which are never kept (a post the flags hide names its page tags)",
  review_item:
    "the review queue, shown on /review, which is never kept; a post page reads only whether its hidden posts wait on it (issue 31), and each change of that (the flags hiding a post, a decision) names the post's page tags",
  post_revision: "a post's earlier versions (issue 32): shown only on its history page, which is never kept",
  draft: "a member's half-written posts (issue 32): read by their own editor's script and their dashboard, neither ever kept",
  post_image:
    "which media files are pictures in posts (issue 32): read by the /media route to let them through, never by a page (a post shows its picture through its own rendered body)",
  notification:
    "a member's notifications: the bell's count is part of the session fingerprint every kept page is checked against on each hit (ADR 0040, issue 28), and the list of them is never kept",
  notification_setting: "shown only on the settings page, which is never kept",
  reply_hour: "reply counts per hour, read when a reply is written to mark a discussion featured (ADR 0027): the discussion row carries what pages show",
};

/**
 * Tables whose new rows no kept page can have shown, so adding one needs no tag (changing or
 * deleting one still does): pages reach their rows only by id or through another table's rows, and
 * none lists or counts them.
 */
export const NEW_ROWS_UNSEEN: Readonly<Partial<Record<Table, string>>> = {
  media:
    "a stored file is reached only by its generated name, from the creation, member or post that names it, whose own write names its pages; no kept page lists or counts files, so a new one (a picture uploaded into a box, issue 32) changes none",
  member:
    "a member shows only as an author (through posts, which name their pages) and on their own profile, a 404 before they join, which is never kept; no kept page lists or counts members (the directory and search, which do, are never kept)",
};

/**
 * Tables whose rows, once written, never change in what other pages read of them: a page may read
 * these without their tag (writes of them still need one, for the pages that show what does change).
 */
export const STABLE_READS: Readonly<Partial<Record<Table, string>>> = {
  topic:
    "its id, section and title, in a discussion's breadcrumb and a post's address: a topic is never renamed (its counts change, and the pages showing them read its tag)",
  challenge_virtue: "the virtues a challenge trains are fixed when it is proposed; a profile's virtue levels count completed attempts through them",
};

const covering = new Map<TagKind, ReadonlySet<string>>(Object.entries(TAG_COVERAGE).map(([kind, tables]) => [kind as TagKind, new Set(tables)]));

/** The kind of a tag as the helpers build it: `discussion:7` is a `discussion` tag. */
export function tagKind(tag: string): string {
  const colon = tag.indexOf(":");
  return colon === -1 ? tag : tag.slice(0, colon);
}

/** Whether a page or a write shows this table: a schema table not in HIDDEN_TABLES. */
export function isShownTable(table: string) {
  return Object.hasOwn(TABLES, table) && !Object.hasOwn(HIDDEN_TABLES, table);
}

/** Whether a page reading this table needs a tag covering it (shown, and not stable once written). */
export function needsReadTag(table: string) {
  return isShownTable(table) && !Object.hasOwn(STABLE_READS, table);
}

/** Whether adding rows to this table (not changing them) can change what a kept page shows. */
export function isShownInsert(table: string) {
  return isShownTable(table) && !Object.hasOwn(NEW_ROWS_UNSEEN, table);
}

/** Whether this tag stands for rows of this table (`site` and `-` stand for no table in particular). */
export function tagCovers(tag: string, table: string) {
  return covering.get(tagKind(tag) as TagKind)?.has(table) ?? false;
}
