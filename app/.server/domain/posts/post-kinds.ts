import type { XpKind } from "~/lib/xp";

/**
 * Every kind of post a member writes, and what the posting pipeline (ADR 0017) needs to know about
 * each: where it is stored, which stored counts it adds to, what its author earns for it and which
 * limits apply. Creation and comment are modelled for the Forge; their tables get submission keys
 * when the Forge's forms are built.
 */
export type PostKind = "discussion" | "reply" | "question" | "answer" | "creation" | "comment";

/** The tables that hold posts. */
export type PostTable = "discussion" | "reply" | "question" | "answer" | "creation" | "creation_comment";

/** A stored count on another row that a visible post adds one to. */
export interface CountedIn {
  table: "topic" | "discussion" | "question" | "creation";
  column: "discussion_count" | "reply_count" | "answer_count" | "comment_count";
  /** Whether a new post also moves that row's last_activity_at. */
  activity: boolean;
}

export interface PostModel {
  table: PostTable;
  /** The column naming the post's parent row, if it has one. */
  parent: "topic_id" | "discussion_id" | "question_id" | "creation_id" | null;
  /** What "not found" says for this kind. */
  missing: string;
  /** The XP its author earns for posting it, if any; taken back when the author deletes it. */
  xp: XpKind | null;
  /** XP others gave the post, taken back with it: by the post's id, and per vote (`<id>:<voter>`). */
  earned: { byId: readonly XpKind[]; byVote: readonly XpKind[] };
  /** Counted in the initiate's one shared daily limit (PRODUCT.md §3). */
  daily: boolean;
  /**
   * Whether the author's edits count against the write burst limit. The Forum's always have; the
   * Council's never did, and this refactor keeps behaviour as it was (ADR 0017).
   */
  editsLimited: boolean;
  /** Columns naming the post's stored files (ADR 0020); they go with the post when its author deletes it. */
  media: readonly MediaColumn[];
}

export type MediaColumn = "image_name" | "image_display_name" | "image_thumb_name" | "audio_name";

const none = { byId: [], byVote: [] } as const;

export const POST_KINDS: Record<PostKind, PostModel> = {
  discussion: {
    table: "discussion",
    parent: "topic_id",
    missing: "Post not found",
    xp: "discussion.started",
    earned: none,
    daily: true,
    editsLimited: true,
    media: [],
  },
  reply: {
    table: "reply",
    parent: "discussion_id",
    missing: "Post not found",
    xp: "reply.posted",
    earned: none,
    daily: false,
    editsLimited: true,
    media: [],
  },
  question: {
    table: "question",
    parent: null,
    missing: "Question not found",
    xp: "question.asked",
    earned: none,
    daily: true,
    editsLimited: false,
    media: [],
  },
  answer: {
    table: "answer",
    parent: "question_id",
    missing: "Answer not found",
    xp: "answer.posted",
    earned: { byId: ["answer.accepted"], byVote: ["answer.helpful"] },
    daily: false,
    editsLimited: false,
    media: [],
  },
  creation: {
    table: "creation",
    parent: null,
    missing: "Creation not found",
    xp: "creation.shared",
    earned: { byId: [], byVote: ["creation.liked"] },
    daily: true,
    editsLimited: true,
    media: ["image_name", "image_display_name", "image_thumb_name", "audio_name"],
  },
  comment: {
    table: "creation_comment",
    parent: "creation_id",
    missing: "Comment not found",
    xp: null, // PRODUCT.md §3 gives comments no XP
    earned: none,
    daily: false,
    editsLimited: true,
    media: [],
  },
};

/** The kinds counted together in the initiate's daily limit. */
export const DAILY_COUNTED = (Object.keys(POST_KINDS) as PostKind[]).filter((kind) => POST_KINDS[kind].daily);

/**
 * The stored counts a visible post of each kind adds to, nearest first; a reply counts in its
 * discussion and, through it, in its topic.
 */
export const COUNTED_IN: Record<PostKind, readonly CountedIn[]> = {
  discussion: [{ table: "topic", column: "discussion_count", activity: true }],
  reply: [
    { table: "discussion", column: "reply_count", activity: true },
    { table: "topic", column: "reply_count", activity: true },
  ],
  question: [],
  answer: [{ table: "question", column: "answer_count", activity: true }],
  creation: [],
  comment: [{ table: "creation", column: "comment_count", activity: false }],
};
