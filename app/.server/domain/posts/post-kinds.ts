import type { XpKind } from "~/lib/xp";
import { tag } from "../../cache/page-tags";
import type { Db } from "../../db/connect";
import type { Executor } from "../../db/executor";
import { clearAcceptedMark } from "../council/council-repository";
import { moveCreationCount } from "../forge/forge-repository";
import { forumPlace, moveReplyHour } from "../forum/section-repository";
import {
  answerNotices,
  commentNotices,
  creationNotices,
  discussionNotices,
  questionNotices,
  replyNotices,
  type NoticePlace,
} from "../notifications/post-notices";

/**
 * Every kind of post a member writes, and everything the posting pipeline (ADR 0017) needs to know
 * about each, as data: where it is stored, which stored counts it adds to, which cached pages show
 * it, what its author earns for it and which limits apply. The pipeline's steps read this table and
 * never ask which kind they hold (ADR 0053), so a new kind (a reaction, a flag) is one entry here,
 * and `tests/integration/posts-pipeline.test.ts` checks that the entry is whole.
 */
export interface PostKindSpec {
  table: PostTable;
  /** The column naming the post's parent row, if it has one. */
  parent: "topic_id" | "discussion_id" | "question_id" | "creation_id" | null;
  /** Whether its posts have a title of their own (kept in its edit history with the body). */
  titled: boolean;
  /** What "not found" says for this kind. */
  missing: string;
  /** Whether the post keeps a plain-text excerpt of its body (`excerpt`), written with the body (ADR 0012). */
  excerpt: boolean;
  /**
   * The stored counts a visible post adds to, nearest first: a reply counts in its discussion and,
   * through it, in its topic.
   */
  countedIn: readonly CountedIn[];
  /**
   * Counts kept elsewhere that move with the post (a reply's hour for featured discussions, ADR 0027;
   * a creation's category on /forge, ADR 0036), in the same transaction.
   */
  alsoCounts: ((trx: Db, post: CountedPost, delta: number) => Promise<void>) | null;
  /**
   * The cached pages a post of this kind shows on (issue 13): its own page or its parent's, and the
   * list that counts it. Its author's profile is added by the pipeline for every kind.
   */
  pageTags: (db: Executor, post: { id: number; parentId: string | number | null }) => Promise<string[]>;
  /** The XP its author earns for posting it, if any; taken back when the author deletes it. */
  xp: XpKind | null;
  /** XP others gave the post, taken back with it: by the post's id, and per vote (`<id>:<voter>`). */
  earned: { byId: readonly XpKind[]; byVote: readonly XpKind[] };
  /** Counted in the initiate's one shared daily limit (PRODUCT.md §3). */
  daily: boolean;
  /**
   * Whether the author's edits count against the write burst limit. The Forum's always have; the
   * Council's never did, and the refactor kept behaviour as it was (ADR 0017).
   */
  editsLimited: boolean;
  /** Columns naming the post's stored files (ADR 0020); they go with the post when its author deletes it. */
  media: readonly MediaColumn[];
  /** What else goes when a post of this kind is deleted (an answer's accepted mark), in the same transaction. */
  alsoDeletes: ((trx: Db, id: number) => Promise<void>) | null;
  /**
   * Where a notice about a post of this kind takes its reader, who is told of a new one and what
   * its author watches from then on (issue 28); undefined when the post is gone.
   */
  notices: (db: Executor, post: { id: number; parentId: string | number | null }) => Promise<NoticePlace | undefined>;
  /** The live channel an open page of its parent listens on for new ones (issue 28), if any. */
  live: ((post: { id: number; parentId: string | number | null }) => { channel: string; event: { type: string; id: number } }) | null;
}

/** The tables that hold posts. */
export type PostTable = "discussion" | "reply" | "question" | "answer" | "creation" | "creation_comment";

/** A stored count on another row that a visible post adds one to. */
export interface CountedIn {
  table: "topic" | "discussion" | "question" | "creation";
  column: "discussion_count" | "reply_count" | "answer_count" | "comment_count";
  /** Whether a new post also moves that row's last_activity_at. */
  activity: boolean;
  /** The row is not the post's parent but one the parent names: its `column` in the parent's `table`. */
  via?: { table: "discussion"; column: "topic_id" };
}

/** What a count step knows of the post. */
export interface CountedPost {
  id: number;
  parentId: string | number | null;
  createdAt: string | Date;
}

export type MediaColumn = "image_name" | "image_display_name" | "image_thumb_name" | "audio_name";

const none = { byId: [], byVote: [] } as const;

/** A forum post's pages: its discussion, the topic that lists it and the section that lists the topic. */
async function forumPageTags(db: Executor, discussionId: number, place: Parameters<typeof forumPlace>[1]) {
  const found = await forumPlace(db, place);
  return [tag.discussion(discussionId), ...(found ? [tag.topic(found.topicId), tag.section(found.section)] : [])];
}

export const POST_KINDS = {
  discussion: {
    table: "discussion",
    parent: "topic_id",
    titled: true,
    missing: "Post not found",
    excerpt: true,
    countedIn: [{ table: "topic", column: "discussion_count", activity: true }],
    alsoCounts: null,
    // A discussion also changes what its section's discussion pages list as related (issue 30).
    pageTags: async (db, post) => {
      const tags = await forumPageTags(db, post.id, { topicId: String(post.parentId) });
      const section = tags.find((t) => t.startsWith("section:"));
      return section ? [...tags, tag.related(section)] : tags;
    },
    xp: "discussion.started",
    earned: none,
    daily: true,
    editsLimited: true,
    media: [],
    alsoDeletes: null,
    notices: discussionNotices,
    live: null,
  },
  reply: {
    table: "reply",
    parent: "discussion_id",
    titled: false,
    missing: "Post not found",
    excerpt: false,
    countedIn: [
      { table: "discussion", column: "reply_count", activity: true },
      { table: "topic", column: "reply_count", activity: true, via: { table: "discussion", column: "topic_id" } },
    ],
    alsoCounts: (trx, post, delta) => moveReplyHour(trx, Number(post.parentId), post.createdAt, delta),
    pageTags: (db, post) => forumPageTags(db, Number(post.parentId), { discussionId: Number(post.parentId) }),
    xp: "reply.posted",
    earned: none,
    daily: false,
    editsLimited: true,
    media: [],
    alsoDeletes: null,
    notices: replyNotices,
    live: (post) => ({ channel: `discussion:${Number(post.parentId)}`, event: { type: "reply", id: post.id } }),
  },
  question: {
    table: "question",
    parent: null,
    titled: true,
    missing: "Question not found",
    excerpt: true,
    countedIn: [],
    alsoCounts: null,
    pageTags: async (_db, post) => [tag.question(post.id), tag.council, tag.related("council")],
    xp: "question.asked",
    earned: none,
    daily: true,
    editsLimited: false,
    media: [],
    alsoDeletes: null,
    notices: questionNotices,
    live: null,
  },
  answer: {
    table: "answer",
    parent: "question_id",
    titled: false,
    missing: "Answer not found",
    excerpt: false,
    countedIn: [{ table: "question", column: "answer_count", activity: true }],
    alsoCounts: null,
    pageTags: async (_db, post) => [tag.question(Number(post.parentId)), tag.council],
    xp: "answer.posted",
    earned: { byId: ["answer.accepted"], byVote: ["answer.helpful"] },
    daily: false,
    editsLimited: false,
    media: [],
    alsoDeletes: clearAcceptedMark,
    notices: answerNotices,
    live: (post) => ({ channel: `question:${Number(post.parentId)}`, event: { type: "answer", id: post.id } }),
  },
  creation: {
    table: "creation",
    parent: null,
    titled: true,
    missing: "Creation not found",
    excerpt: false,
    countedIn: [],
    alsoCounts: (trx, post, delta) => moveCreationCount(trx, post.id, delta),
    pageTags: async (_db, post) => [tag.creation(post.id), tag.forge, tag.related("forge")],
    xp: "creation.shared",
    earned: { byId: [], byVote: ["creation.liked"] },
    daily: true,
    editsLimited: true,
    media: ["image_name", "image_display_name", "image_thumb_name", "audio_name"],
    alsoDeletes: null,
    notices: creationNotices,
    live: null,
  },
  comment: {
    table: "creation_comment",
    parent: "creation_id",
    titled: false,
    missing: "Comment not found",
    excerpt: false,
    countedIn: [{ table: "creation", column: "comment_count", activity: false }],
    alsoCounts: null,
    pageTags: async (_db, post) => [tag.creation(Number(post.parentId)), tag.forge],
    xp: null, // PRODUCT.md §3 gives comments no XP
    earned: none,
    daily: false,
    editsLimited: true,
    media: [],
    alsoDeletes: null,
    notices: commentNotices,
    live: null,
  },
} as const satisfies Record<string, PostKindSpec>;

/** One kind of post: a key of POST_KINDS, so a new entry there is a new kind everywhere. */
export type PostKind = keyof typeof POST_KINDS;

export const POST_KIND_NAMES = Object.keys(POST_KINDS) as PostKind[];

export function isPostKind(value: unknown): value is PostKind {
  return typeof value === "string" && Object.hasOwn(POST_KINDS, value);
}

/** A kind's description, widened to PostKindSpec (the table itself keeps each entry's literal types). */
export const specOf = (kind: PostKind): PostKindSpec => POST_KINDS[kind];

/** The kinds counted together in the initiate's daily limit. */
export const DAILY_COUNTED = POST_KIND_NAMES.filter((kind) => specOf(kind).daily);
