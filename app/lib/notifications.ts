/**
 * The kinds of notification (issue 28), each with the setting that turns it on or off and the line
 * the bell's list shows for it. Shared by the services that write them, the list, the digest mail
 * and the settings page, so a kind is named and worded once.
 */
export const NOTIFICATION_SETTINGS = {
  reply: "Replies in discussions you watch",
  discussion: "New discussions in topics you watch",
  answer: "Answers to questions you asked or watch",
  accepted: "Your answer accepted",
  helpful: "Your answer marked helpful",
  like: "Likes on your creations",
  reaction: "Reactions to your posts",
  comment: "Comments on your creations",
  mention: "Mentions of you",
  rank: "Your rank went up",
  check_in: "Today's check-in for your challenges",
  event: "Events you are going to",
  moderation: "Your posts hidden or restored",
  flag: "What moderators decided about your flags",
  bookmark: "Reminders you set on bookmarks",
} as const;

export type NotificationSetting = keyof typeof NOTIFICATION_SETTINGS;
export const NOTIFICATION_SETTING_NAMES = Object.keys(NOTIFICATION_SETTINGS) as NotificationSetting[];

/** What a line says, given who did it (null: nobody in particular), how many others did too and the title. */
type Sentence = (line: { actor: string | null; others: number; title: string }) => string;

const who = (actor: string | null, others: number) =>
  others === 0 ? (actor ?? "Someone") : `${actor ?? "Someone"} and ${others} ${others === 1 ? "other" : "others"}`;

export const NOTIFICATION_KINDS = {
  reply: { setting: "reply", says: ({ actor, title }) => `${actor ?? "Someone"} replied in "${title}"` },
  discussion: { setting: "discussion", says: ({ actor, title }) => `${actor ?? "Someone"} started "${title}"` },
  answer: { setting: "answer", says: ({ actor, title }) => `${actor ?? "Someone"} answered "${title}"` },
  accepted: { setting: "accepted", says: ({ actor, title }) => `${actor ?? "Someone"} accepted your answer to "${title}"` },
  helpful: { setting: "helpful", says: ({ actor, others, title }) => `${who(actor, others)} marked your answer to "${title}" helpful` },
  like: { setting: "like", says: ({ actor, others, title }) => `${who(actor, others)} liked "${title}"` },
  reaction: { setting: "reaction", says: ({ actor, others, title }) => `${who(actor, others)} reacted to your post in "${title}"` },
  comment: { setting: "comment", says: ({ actor, title }) => `${actor ?? "Someone"} commented on "${title}"` },
  mention: { setting: "mention", says: ({ actor, title }) => `${actor ?? "Someone"} mentioned you in "${title}"` },
  rank: { setting: "rank", says: ({ title }) => `You rose to the rank of ${title}` },
  check_in: { setting: "check_in", says: ({ title }) => `"${title}" needs today's check-in` },
  "event.changed": { setting: "event", says: ({ title }) => `"${title}" changed` },
  "event.cancelled": { setting: "event", says: ({ title }) => `"${title}" was cancelled` },
  "event.promoted": { setting: "event", says: ({ title }) => `You moved up from the waitlist: you are going to "${title}"` },
  "moderation.hidden": { setting: "moderation", says: ({ title }) => `A moderator hid your post in "${title}"` },
  "moderation.restored": { setting: "moderation", says: ({ title }) => `A moderator restored your post in "${title}"` },
  "moderation.pending": { setting: "moderation", says: ({ title }) => `Your post in "${title}" waits for a moderator's approval` },
  // What a moderator decided about the member themselves always reaches their bell, whatever their
  // settings (as Discourse's official warnings do): they are told why they cannot post, or why a
  // next time may cost more. Mail still follows the setting.
  "moderation.silenced": { setting: "moderation", always: true, says: ({ title }) => `A moderator silenced you until ${title}` },
  "moderation.picture": { setting: "moderation", always: true, says: () => "A moderator removed your profile picture" },
  // Its title is the moderator's own words to the author (issue 31), not a post's title.
  "moderation.warned": { setting: "moderation", always: true, says: ({ title }) => `A moderator warned you about a post of yours: "${title}"` },
  "moderation.flagged": { setting: "moderation", says: ({ title }) => `Your post in "${title}" is hidden while the community reviews it` },
  bookmark: { setting: "bookmark", says: ({ title }) => `Reminder: "${title}", which you bookmarked` },
  "flag.agreed": { setting: "flag", says: ({ title }) => `A moderator agreed with your flag on a post in "${title}"` },
  "flag.disagreed": { setting: "flag", says: ({ title }) => `A moderator did not agree with your flag on a post in "${title}"; it shows again` },
} as const satisfies Record<string, { setting: NotificationSetting; always?: true; says: Sentence }>;

/** Whether a kind reaches the bell whatever the member's settings and mutes. */
export function alwaysTold(kind: NotificationKind): boolean {
  return "always" in NOTIFICATION_KINDS[kind];
}

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

export function isNotificationKind(kind: string): kind is NotificationKind {
  return Object.hasOwn(NOTIFICATION_KINDS, kind);
}

/** The line for a stored notification; a kind no longer known says only its title. */
export function notificationText(line: { kind: string; actor: string | null; others: number; title: string }) {
  return isNotificationKind(line.kind) ? (NOTIFICATION_KINDS[line.kind].says as Sentence)(line) : line.title;
}

/** Only the first mentions in one post notify (issue 28); the rest still render as links. */
export const MENTIONS_NOTIFIED = 20;

/** The bell shows up to this many; more reads "99+". */
export const BELL_MAX = 99;

export function bellLabel(unread: number) {
  return unread > BELL_MAX ? `${BELL_MAX}+` : String(unread);
}

/** A discussion, question or topic's watching level, as its page's control offers them. */
export const WATCH_LEVELS = {
  watching: "Watching",
  normal: "Normal",
  muted: "Muted",
} as const;
export type WatchLevel = keyof typeof WATCH_LEVELS;
