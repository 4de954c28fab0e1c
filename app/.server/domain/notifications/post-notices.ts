import type { Executor } from "../../db/executor";
import type { NotificationKind } from "~/lib/notifications";
import { discussionsWithPlace } from "../forum/forum-repository";
import { discussionPath, replyPath } from "../forum/section-read-model";
import { watchersOf } from "./notification-repository";

/**
 * Where a notice about a post takes its reader and who is told of a new one (issue 28), per kind of
 * post; the posting pipeline reads these through each kind's entry in POST_KINDS (ADR 0053).
 */
export interface NoticePlace {
  /** The post itself, "<kind>:<id>". */
  subject: string;
  /** The post it is under, whose hiding or deletion takes the notice too. */
  parent: string | null;
  /** The discussion, question or creation the reader recognises it by. */
  title: string;
  /** The exact place: the reply's, answer's or comment's anchor. */
  url: string;
  /** Subjects whose muting silences notices of it (its discussion and topic, its question). */
  quietIf: string[];
  /** What its author watches from then on (a discussion started or replied to, a question asked or answered). */
  authorWatches: string | null;
  /** Who is told besides those it mentions: watchers, the question's or creation's author. */
  told: Array<{ memberId: string; kind: NotificationKind }>;
}

type Post = { id: number; parentId: string | number | null };

async function discussionOf(db: Executor, id: number) {
  return discussionsWithPlace(db).where("discussion.id", "=", id).executeTakeFirst();
}

const tell = (members: string[], kind: NotificationKind) => members.map((memberId) => ({ memberId, kind }));

export const discussionNotices = async (db: Executor, post: Post): Promise<NoticePlace | undefined> => {
  const d = await discussionOf(db, post.id);
  if (!d) return undefined;
  const topic = `topic:${d.topic_id}`;
  return {
    subject: `discussion:${d.id}`,
    parent: null,
    title: d.title,
    url: discussionPath(d.section, d.topic_id, d),
    quietIf: [`discussion:${d.id}`, topic],
    authorWatches: `discussion:${d.id}`,
    told: tell(await watchersOf(db, topic), "discussion"),
  };
};

export const replyNotices = async (db: Executor, post: Post): Promise<NoticePlace | undefined> => {
  const d = await discussionOf(db, Number(post.parentId));
  if (!d) return undefined;
  const discussion = `discussion:${d.id}`;
  return {
    subject: `reply:${post.id}`,
    parent: discussion,
    title: d.title,
    url: replyPath(discussionPath(d.section, d.topic_id, d), post.id),
    quietIf: [discussion, `topic:${d.topic_id}`],
    authorWatches: discussion,
    told: tell(await watchersOf(db, discussion), "reply"),
  };
};

export const questionNotices = async (db: Executor, post: Post): Promise<NoticePlace | undefined> => {
  const q = await db.selectFrom("question").select(["id", "title"]).where("id", "=", post.id).executeTakeFirst();
  if (!q) return undefined;
  return {
    subject: `question:${q.id}`,
    parent: null,
    title: q.title,
    url: `/council/${q.id}`,
    quietIf: [`question:${q.id}`],
    authorWatches: `question:${q.id}`,
    told: [],
  };
};

export const answerNotices = async (db: Executor, post: Post): Promise<NoticePlace | undefined> => {
  const q = await db.selectFrom("question").select(["id", "title"]).where("id", "=", Number(post.parentId)).executeTakeFirst();
  if (!q) return undefined;
  const question = `question:${q.id}`;
  return {
    subject: `answer:${post.id}`,
    parent: question,
    title: q.title,
    url: `/council/${q.id}#answer-${post.id}`,
    quietIf: [question],
    authorWatches: question,
    told: tell(await watchersOf(db, question), "answer"),
  };
};

export const creationNotices = async (db: Executor, post: Post): Promise<NoticePlace | undefined> => {
  const c = await db.selectFrom("creation").select(["id", "title"]).where("id", "=", post.id).executeTakeFirst();
  if (!c) return undefined;
  return { subject: `creation:${c.id}`, parent: null, title: c.title, url: `/forge/${c.id}`, quietIf: [], authorWatches: null, told: [] };
};

export const commentNotices = async (db: Executor, post: Post): Promise<NoticePlace | undefined> => {
  const c = await db.selectFrom("creation").select(["id", "title", "author_id"]).where("id", "=", Number(post.parentId)).executeTakeFirst();
  if (!c) return undefined;
  return {
    subject: `comment:${post.id}`,
    parent: `creation:${c.id}`,
    title: c.title,
    url: `/forge/${c.id}#comment-${post.id}`,
    quietIf: [],
    authorWatches: null,
    told: tell([c.author_id], "comment"),
  };
};
