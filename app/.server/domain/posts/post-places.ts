import type { Executor } from "../../db/executor";
import { discussionPath, replyPath } from "../forum/section-read-model";
import { isPostKind, type PostKind } from "./post-kinds";
import { parseId } from "~/lib/params";

/** A post named by its kind and id, as bookmarks and search hold them. */
export interface PostRef {
  kind: PostKind;
  id: number;
}

/** Where a post is and what a reader recognises it by. */
export interface PostPlace {
  /** Its own title, or the title of the discussion, question or creation it is under. */
  title: string;
  /** The exact place: a reply's page and anchor, an answer's or a comment's anchor. */
  url: string;
  /** Where on the site: "Monastery", "Reply in Battlefield", "Answer in the Council"… */
  where: string;
  /** Deleted by its author. */
  deleted: boolean;
  /** Hidden by a moderator, or under a post that is. */
  hidden: boolean;
}

export const postKey = (ref: PostRef) => `${ref.kind}:${ref.id}`;

/** A post named by a request (an address's or a form's kind and id), or null when none could exist. */
export function postRefOf(kind: unknown, id: unknown): PostRef | null {
  const postId = parseId(id);
  return isPostKind(kind) && postId ? { kind, id: postId } : null;
}

const SECTION_NAME = { monastery: "Monastery", battlefield: "Battlefield" } as const;
const removed = (row: { deleted_at: unknown }) => row.deleted_at !== null;
const hiddenAt = (...values: unknown[]) => values.some((v) => v !== null && v !== undefined);

/**
 * The places of these posts, by `postKey`: one query per kind asked for, never one per post. A post
 * that does not exist has no entry.
 */
export async function postPlaces(db: Executor, refs: readonly PostRef[]): Promise<Map<string, PostPlace>> {
  const ids = (kind: PostKind) => [...new Set(refs.filter((r) => r.kind === kind).map((r) => r.id))];
  const none = Promise.resolve([]);
  const [discussions, replies, questions, answers, creations, comments] = await Promise.all([
    ids("discussion").length === 0
      ? none
      : db
          .selectFrom("discussion")
          .innerJoin("topic", "topic.id", "discussion.topic_id")
          .select([
            "discussion.id",
            "discussion.title",
            "discussion.slug",
            "discussion.topic_id",
            "topic.section",
            "discussion.deleted_at",
            "discussion.hidden_at",
          ])
          .where("discussion.id", "in", ids("discussion"))
          .execute(),
    ids("reply").length === 0
      ? none
      : db
          .selectFrom("reply")
          .innerJoin("discussion", "discussion.id", "reply.discussion_id")
          .innerJoin("topic", "topic.id", "discussion.topic_id")
          .select([
            "reply.id",
            "reply.deleted_at",
            "reply.hidden_at",
            "discussion.id as discussion_id",
            "discussion.title",
            "discussion.slug",
            "discussion.topic_id",
            "discussion.hidden_at as parent_hidden_at",
            "topic.section",
          ])
          .where("reply.id", "in", ids("reply"))
          .execute(),
    ids("question").length === 0
      ? none
      : db.selectFrom("question").select(["id", "title", "deleted_at", "hidden_at"]).where("id", "in", ids("question")).execute(),
    ids("answer").length === 0
      ? none
      : db
          .selectFrom("answer")
          .innerJoin("question", "question.id", "answer.question_id")
          .select([
            "answer.id",
            "answer.deleted_at",
            "answer.hidden_at",
            "question.id as question_id",
            "question.title",
            "question.hidden_at as parent_hidden_at",
          ])
          .where("answer.id", "in", ids("answer"))
          .execute(),
    ids("creation").length === 0
      ? none
      : db.selectFrom("creation").select(["id", "title", "deleted_at", "hidden_at"]).where("id", "in", ids("creation")).execute(),
    ids("comment").length === 0
      ? none
      : db
          .selectFrom("creation_comment")
          .innerJoin("creation", "creation.id", "creation_comment.creation_id")
          .select([
            "creation_comment.id",
            "creation_comment.deleted_at",
            "creation_comment.hidden_at",
            "creation.id as creation_id",
            "creation.title",
            "creation.hidden_at as parent_hidden_at",
          ])
          .where("creation_comment.id", "in", ids("comment"))
          .execute(),
  ]);
  const places = new Map<string, PostPlace>();
  const put = (kind: PostKind, id: number, place: PostPlace) => places.set(postKey({ kind, id }), place);
  for (const d of discussions) {
    put("discussion", d.id, {
      title: d.title,
      url: discussionPath(d.section, d.topic_id, d),
      where: SECTION_NAME[d.section],
      deleted: removed(d),
      hidden: hiddenAt(d.hidden_at),
    });
  }
  for (const r of replies) {
    const url = replyPath(discussionPath(r.section, r.topic_id, { id: r.discussion_id, slug: r.slug }), r.id);
    put("reply", r.id, {
      title: r.title,
      url,
      where: `Reply in ${SECTION_NAME[r.section]}`,
      deleted: removed(r),
      hidden: hiddenAt(r.hidden_at, r.parent_hidden_at),
    });
  }
  for (const q of questions)
    put("question", q.id, { title: q.title, url: `/council/${q.id}`, where: "Council", deleted: removed(q), hidden: hiddenAt(q.hidden_at) });
  for (const a of answers) {
    put("answer", a.id, {
      title: a.title,
      url: `/council/${a.question_id}#answer-${a.id}`,
      where: "Answer in the Council",
      deleted: removed(a),
      hidden: hiddenAt(a.hidden_at, a.parent_hidden_at),
    });
  }
  for (const c of creations)
    put("creation", c.id, { title: c.title, url: `/forge/${c.id}`, where: "Forge", deleted: removed(c), hidden: hiddenAt(c.hidden_at) });
  for (const c of comments) {
    put("comment", c.id, {
      title: c.title,
      url: `/forge/${c.creation_id}#comment-${c.id}`,
      where: "Comment in the Forge",
      deleted: removed(c),
      hidden: hiddenAt(c.hidden_at, c.parent_hidden_at),
    });
  }
  return places;
}
