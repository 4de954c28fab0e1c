import type { ColumnType, Generated, Insertable, Selectable } from "kysely";
import type { CreationType, MemberRole, PathId, SectionId } from "../../lib/domain-values";

/**
 * Timestamps are ISO-8601 strings in UTC on SQLite and `timestamptz` on PostgreSQL; reads may give
 * either a string or a Date, so read them through `toDate` (app/lib/dates.ts).
 */
export type Timestamp = string | Date;
/** Booleans are 0/1 on SQLite and real booleans on PostgreSQL. */
export type Flag = boolean | number;

/** Better Auth's user model, named `member` in our domain (ADR 0004). */
export interface MemberTable {
  id: string;
  name: string;
  email: string;
  email_verified: Flag;
  image: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  handle: string;
  bio: string | null;
  /** JSON array of interest keys, e.g. ["meditation","fitness"]. */
  interests: string;
  role: MemberRole;
  /** IANA time zone name; calendar days (check-ins) and event times are shown in it. */
  time_zone: ColumnType<string, string | undefined, string>;
  /** The rank the member was last shown; a higher rank now means a rank-up toast (ADR 0022). */
  seen_rank: ColumnType<string | null, string | null | undefined, string | null>;
  /** The sum of the member's XP ledger, moved in the ledger's own transaction (issue 13). */
  xp: ColumnType<number, number | undefined, number>;
  /** rankFor(xp, virtue levels), stored with xp so that author lists read it (issue 13). */
  rank: ColumnType<string, string | undefined, string>;
  /** When the member was last mailed a digest of unread notifications (issue 28: at most one an hour). */
  digest_sent_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Silenced by a moderator until then (issue 31): they read, but do not post, react or flag. */
  silenced_until: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** The reason the moderator gave, shown to the member with every refusal. */
  silence_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The 32-hex base name of the member's picture in three sizes (issue 32, ADR 0072); null: their initials. */
  avatar: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionTable {
  id: string;
  token: string;
  member_id: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountTable {
  id: string;
  account_id: string;
  provider_id: string;
  member_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: Timestamp | null;
  refresh_token_expires_at: Timestamp | null;
  scope: string | null;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TopicTable {
  id: string;
  section: SectionId;
  title: string;
  description: string;
  created_by: string | null;
  created_at: Timestamp;
  discussion_count: Generated<number>;
  reply_count: Generated<number>;
  member_count: Generated<number>;
  last_activity_at: Timestamp;
}

export interface TopicMemberTable {
  topic_id: string;
  member_id: string;
  joined_at: Timestamp;
}

/**
 * The columns every table of posts has (post-kinds.ts's PostTable), which the posting pipeline,
 * moderation, search and the pages read alike.
 */
interface PostColumns {
  id: Generated<number>;
  author_id: string;
  body: string;
  /** The body rendered to HTML when it is written (ADR 0012, 0027); every writer supplies it, no page renders Markdown. */
  body_html: string;
  created_at: Timestamp;
  edited_at: Timestamp | null;
  deleted_at: Timestamp | null;
  hidden_at: Timestamp | null;
}

export interface DiscussionTable extends PostColumns {
  topic_id: string;
  title: string;
  slug: string;
  /** Plain-text teaser of the body, made when the body is written (ADR 0012). */
  excerpt: string;
  locked_at: Timestamp | null;
  featured_at: Timestamp | null;
  reply_count: Generated<number>;
  last_activity_at: Timestamp;
  submission_key: string | null;
}

export interface ReplyTable extends PostColumns {
  discussion_id: number;
  submission_key: string | null;
  /** The reply of the same discussion it answers, if its author named one (issue 32). */
  reply_to_id: number | null;
}

export interface CreationTable extends PostColumns {
  title: string;
  description: string;
  type: CreationType;
  /** Visual Art: the full image re-encoded without metadata, its display size and its thumbnail (media names). */
  image_name: string | null;
  image_display_name: string | null;
  image_thumb_name: string | null;
  /** Music: the audio file (media name). */
  audio_name: string | null;
  link_url: string | null;
  like_count: Generated<number>;
  comment_count: Generated<number>;
  submission_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A mail waiting to be sent, sent, or given up on (app/.server/mail/outbox.ts). */
export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** JSON object of extra headers. */
  headers: ColumnType<string, string | undefined, string>;
  kind: string;
  dedupe_key: string | null;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
  sent_at: Timestamp | null;
  failed_at: Timestamp | null;
  last_error: string | null;
  created_at: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
}

/** One stored file variant under a generated name (MediaStore, database implementation). */
export interface MediaTable {
  name: string;
  content_type: string;
  byte_size: number;
  /** Hex SHA-256 of the bytes; the strong ETag. */
  sha256: string;
  width: number | null;
  height: number | null;
  data: Uint8Array;
  owner_id: string | null;
  created_at: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
}

export interface CreationLikeTable {
  creation_id: number;
  member_id: string;
  created_at: Timestamp;
}

export interface CreationCommentTable extends PostColumns {
  creation_id: number;
  submission_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface QuestionTable extends PostColumns {
  title: string;
  /** Plain-text teaser of the body, made when the body is written (ADR 0012). */
  excerpt: string;
  view_count: Generated<number>;
  answer_count: Generated<number>;
  accepted_answer_id: number | null;
  last_activity_at: Timestamp;
  submission_key: string | null;
}

export interface QuestionVirtueTable {
  question_id: number;
  virtue: string;
}

export interface AnswerTable extends PostColumns {
  question_id: number;
  helpful_count: Generated<number>;
  submission_key: string | null;
}

export interface HelpfulVoteTable {
  answer_id: number;
  member_id: string;
  created_at: Timestamp;
}

export interface QuestionViewTable {
  question_id: number;
  /** "m:<member id>" or "a:<keyed hash of the address and day>". */
  viewer_key: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
}

export interface AdvisorTable {
  member_id: string;
  path: PathId;
  specialty: string;
  granted_at: Timestamp;
}

/** One row per awarded event; unique per member, kind and subject so an award never counts twice. */
export interface XpEventTable {
  id: Generated<number>;
  member_id: string;
  kind: string;
  subject_id: string;
  points: number;
  created_at: Timestamp;
}

export interface NewsletterSubscriptionTable {
  id: Generated<number>;
  email: string;
  /** Random; proves the link in a mail came from us. */
  token: string;
  status: "pending" | "confirmed" | "unsubscribed";
  created_at: Timestamp;
  confirmation_sent_at: Timestamp | null;
  confirmed_at: Timestamp | null;
  unsubscribed_at: Timestamp | null;
}

/** One row per counted request; a fixed window per key (see rate-limit.ts). */
export interface RateLimitHitTable {
  id: Generated<number>;
  key: string;
  hit_at: Timestamp;
}

export type ModerationActionKind = "hide" | "restore" | "lock" | "unlock" | "feature" | "unfeature";
/** What the moderators' log records: their actions, and the review queue's (issue 31) flags hiding a post and decisions. */
export type ModerationLogAction = ModerationActionKind | "auto-hide" | "agree" | "disagree" | "ignore" | "warn" | "delete";

/** Who did what to which post, and when (issue 3: every moderation action is recorded). */
export interface ModerationActionTable {
  id: Generated<number>;
  actor_id: string;
  action: ModerationLogAction;
  /** The kind of post (domain/posts/post-kinds.ts). */
  subject_type: "discussion" | "reply" | "question" | "answer" | "creation" | "comment";
  subject_id: number;
  created_at: Timestamp;
}

/** An event (PRODUCT.md §4); times in UTC, written in `time_zone` (ADR 0024). */
export interface EventTable {
  id: Generated<number>;
  title: string;
  description: string;
  /** The description rendered to HTML when it is written (ADR 0027). */
  description_html: string;
  path: PathId;
  starts_at: Timestamp;
  ends_at: Timestamp;
  /** IANA zone the host wrote the times in. */
  time_zone: string;
  online_url: string | null;
  place: string | null;
  capacity: number;
  host_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  cancelled_at: Timestamp | null;
  submission_key: string | null;
}

export type RsvpStatus = "going" | "waitlisted" | "not_going";

export interface EventRsvpTable {
  event_id: number;
  member_id: string;
  status: RsvpStatus;
  /** Place in the waitlist (1 moves up next); null unless waitlisted. */
  waitlist_position: number | null;
  updated_at: Timestamp;
}

export type ChallengeStatus = "published" | "proposed" | "declined";
export type AttemptStatus = "active" | "completed" | "failed";

/** A challenge (ADR 0022): published by an advisor or admin, or proposed by a sage for review. */
export interface ChallengeTable {
  id: Generated<number>;
  title: string;
  description: string;
  path: PathId;
  length_days: number;
  check_ins_required: number;
  status: ChallengeStatus;
  created_by: string | null;
  reviewed_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
  published_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  submission_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ChallengeVirtueTable {
  challenge_id: number;
  virtue: string;
}

/** One member's try at a challenge; days are YYYY-MM-DD in the member's time zone. */
export interface ChallengeAttemptTable {
  id: Generated<number>;
  challenge_id: number;
  member_id: string;
  status: AttemptStatus;
  starts_on: string;
  ends_on: string;
  check_in_count: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
  completed_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface ChallengeCheckInTable {
  attempt_id: number;
  /** YYYY-MM-DD in the member's time zone when they checked in. */
  day: string;
  created_at: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
}

/** Visible replies per discussion and UTC hour (`YYYY-MM-DDTHH`), for featured discussions (ADR 0027). */
export interface ReplyHourTable {
  discussion_id: number;
  section: string;
  hour: string;
  replies: number;
}

/** Visible creations per Forge category, kept by the posting pipeline (ADR 0036). */
export interface CreationTypeCountTable {
  type: string;
  creations: number;
}

/** A browser that signed in successfully, by the hash of its device cookie's token (ADR 0042). */
export interface TrustedDeviceTable {
  token_hash: string;
  member_id: string;
  created_at: ColumnType<Timestamp, string | undefined, string>;
  last_used_at: ColumnType<Timestamp, string | undefined, string>;
}

/** A mailed one-time sign-in link, by the hash of its token, for the address it went to (ADR 0042). */
export interface SignInLinkTable {
  token_hash: string;
  member_id: string;
  email: string;
  expires_at: Timestamp;
  created_at: ColumnType<Timestamp, string | undefined, string>;
}

/** One line of a member's notifications (issue 28); `subject` and `parent` are "<kind>:<id>". */
export interface NotificationTable {
  id: Generated<number>;
  member_id: string;
  kind: string;
  actor_id: string | null;
  /** How many others did the same, on a grouped line ("Amara and 4 others liked …"). */
  others: ColumnType<number, number | undefined, number>;
  subject: string;
  parent: string | null;
  title: string;
  url: string;
  group_key: string | null;
  at: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
  read_at: Timestamp | null;
  mailed_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

/** A member's watching level for a discussion, question or topic ("discussion:5"). */
export interface WatchTable {
  member_id: string;
  subject: string;
  level: "watching" | "normal" | "muted";
  updated_at: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
}

export interface MemberMuteTable {
  member_id: string;
  muted_id: string;
  created_at: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
}

/** A notification setting turned off (or on again); no row means on in the site and by mail. */
export interface NotificationSettingTable {
  member_id: string;
  kind: string;
  in_site: Flag;
  by_mail: Flag;
}

/** How far a member has read a discussion or question: its count and last item when they last saw it. */
export interface ReadMarkerTable {
  member_id: string;
  subject: string;
  seen_count: number;
  last_seen_id: number;
  read_at: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
}

/** One findable thing, its words as plain text (issue 30, ADR 0063); written with the thing itself. */
export interface SearchDocumentTable {
  id: Generated<number>;
  kind: SearchKind;
  ref_id: number;
  /** The discussion, question or creation a reply, answer or comment is under. */
  parent_id: number | null;
  title: string;
  body: string;
  author_id: string | null;
  /** The Forum section (discussions and replies). */
  section: SectionId | null;
  /** " discipline courage ": each virtue between spaces (questions and challenges). */
  virtues: string;
  created_at: Timestamp;
  /** 1 when the thing itself is hidden by a moderator. */
  hidden: number;
  /** 1 when the discussion, question or creation it is under is hidden. */
  parent_hidden: number;
}

/** A member's bookmark of a post (issue 30), with their note and an optional reminder. */
export interface BookmarkTable {
  id: Generated<number>;
  member_id: string;
  /** The kind of post (domain/posts/post-kinds.ts). */
  kind: "discussion" | "reply" | "question" | "answer" | "creation" | "comment";
  post_id: number;
  note: ColumnType<string, string | undefined, string>;
  remind_at: Timestamp | null;
  reminded_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  created_at: Timestamp;
}

/** One member's reaction to a post (issue 31); the primary key is (kind, post_id, member_id, reaction). */
export interface ReactionTable {
  /** The kind of post (domain/posts/post-kinds.ts). */
  kind: "discussion" | "reply" | "question" | "answer" | "creation" | "comment";
  post_id: number;
  member_id: string;
  /** A key of REACTIONS (app/lib/reactions.ts). */
  reaction: string;
  created_at: Timestamp;
}

/** A version of a post that an edit replaced (issue 32), with the words that edit changed. */
export interface PostRevisionTable {
  id: Generated<number>;
  /** The kind of post (domain/posts/post-kinds.ts). */
  kind: "discussion" | "reply" | "question" | "answer" | "creation" | "comment";
  post_id: number;
  /** The title it had, for the kinds with one. */
  title: string | null;
  /** Its Markdown, as its author wrote it. */
  body: string;
  /** When this version was written: posted, or edited last. */
  written_at: Timestamp;
  /** When the edit that replaced it came. */
  replaced_at: Timestamp;
  /** The words that edit removed and added (`<del>`, `<ins>`), as escaped markup made when it was written. */
  diff_html: string;
}

/** A member's half-written post in one place (issue 32); the primary key is (member_id, place). */
export interface DraftTable {
  member_id: string;
  /** Where it will be posted: `reply:<discussion>`, `answer:<question>`, `question:new`… (lib/drafts.ts). */
  place: string;
  body: string;
  /** What the dashboard calls it ("Reply in Evening walks"), as the page that kept it said. */
  label: string;
  /** The page to write it on, a path of this site. */
  url: string;
  updated_at: Timestamp;
}

/** An image uploaded into a post's Markdown (issue 32, ADR 0071): its three media files and display size. */
export interface PostImageTable {
  display_name: string;
  full_name: string;
  thumb_name: string;
  width: number;
  height: number;
  owner_id: string | null;
  created_at: Timestamp;
  /** When a saved post first held it; null while only a box holds it (swept after a day). */
  attached_at: Timestamp | null;
}

/** How many of one reaction a post has, kept on write (issue 31). */
export interface ReactionCountTable {
  kind: "discussion" | "reply" | "question" | "answer" | "creation" | "comment";
  post_id: number;
  reaction: string;
  count: number;
}

/** A member's flag on a post (issue 31); one per post and flagger. */
export interface FlagTable {
  id: Generated<number>;
  kind: "discussion" | "reply" | "question" | "answer" | "creation" | "comment";
  post_id: number;
  flagger_id: string;
  /** A key of FLAG_REASONS (app/lib/flags.ts). */
  reason: "spam" | "abusive" | "off_topic" | "other";
  note: ColumnType<string, string | undefined, string>;
  /** Hundredths: what the flagger's rank and record gave it. */
  weight: number;
  created_at: Timestamp;
  outcome: ColumnType<
    "agreed" | "disagreed" | "ignored" | null,
    "agreed" | "disagreed" | "ignored" | null | undefined,
    "agreed" | "disagreed" | "ignored" | null
  >;
  decided_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

/** A flagged post waiting for (or given) a moderator's decision (issue 31). */
export interface ReviewItemTable {
  kind: "discussion" | "reply" | "question" | "answer" | "creation" | "comment";
  post_id: number;
  author_id: string;
  status: "pending" | "decided";
  /** Members' flags, or a new member's first post waiting for approval. */
  reason: ColumnType<"flags" | "approval", "flags" | "approval" | undefined, "flags" | "approval">;
  weight: ColumnType<number, number | undefined, number>;
  flags: ColumnType<number, number | undefined, number>;
  hidden_by_flags_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  opened_at: Timestamp;
  decided_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  decision: ColumnType<"agree" | "disagree" | "ignore" | null, "agree" | "disagree" | "ignore" | null | undefined, "agree" | "disagree" | "ignore" | null>;
  decided_by: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A member's block of another (issue 31): neither sees, hears from or replies to the other. */
export interface MemberBlockTable {
  member_id: string;
  blocked_id: string;
  created_at: Timestamp;
}

/** The kinds of things search finds in its index (members are found by name, from their own table). */
export type SearchKind = "discussion" | "reply" | "question" | "answer" | "creation" | "comment" | "challenge" | "event";

export interface Database {
  challenge: ChallengeTable;
  challenge_virtue: ChallengeVirtueTable;
  challenge_attempt: ChallengeAttemptTable;
  challenge_check_in: ChallengeCheckInTable;
  member: MemberTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  topic: TopicTable;
  topic_member: TopicMemberTable;
  discussion: DiscussionTable;
  reply: ReplyTable;
  reply_hour: ReplyHourTable;
  creation: CreationTable;
  creation_like: CreationLikeTable;
  creation_comment: CreationCommentTable;
  creation_type_count: CreationTypeCountTable;
  media: MediaTable;
  mail_outbox: MailOutboxTable;
  question: QuestionTable;
  question_virtue: QuestionVirtueTable;
  answer: AnswerTable;
  advisor: AdvisorTable;
  xp_event: XpEventTable;
  newsletter_subscription: NewsletterSubscriptionTable;
  rate_limit_hit: RateLimitHitTable;
  trusted_device: TrustedDeviceTable;
  sign_in_link: SignInLinkTable;
  moderation_action: ModerationActionTable;
  helpful_vote: HelpfulVoteTable;
  question_view: QuestionViewTable;
  event: EventTable;
  event_rsvp: EventRsvpTable;
  notification: NotificationTable;
  watch: WatchTable;
  member_mute: MemberMuteTable;
  notification_setting: NotificationSettingTable;
  read_marker: ReadMarkerTable;
  search_document: SearchDocumentTable;
  bookmark: BookmarkTable;
  reaction: ReactionTable;
  post_revision: PostRevisionTable;
  draft: DraftTable;
  post_image: PostImageTable;
  reaction_count: ReactionCountTable;
  flag: FlagTable;
  review_item: ReviewItemTable;
  member_block: MemberBlockTable;
}

export type Member = Selectable<MemberTable>;
export type NewXpEvent = Insertable<XpEventTable>;
