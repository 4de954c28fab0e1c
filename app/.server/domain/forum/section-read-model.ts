import type { Db } from "../../db/connect";
import type { SectionId } from "~/lib/domain-values";
import { readsFrom, tag } from "../../cache/page-tags";
import { withAuthors } from "../progression/authors";
import { featuredDiscussions, findTopic, listTopics } from "./section-repository";

/** A discussion's one canonical address; the page redirects any other slug here. */
export function discussionPath(section: SectionId, topicId: string, discussion: { id: number; slug: string }) {
  return `/${section}/${topicId}/${discussion.id}-${discussion.slug}`;
}

/**
 * A reply's exact place: the page of replies that begins with it (keyset pages: `after` the id
 * before it; the site's first reply has no id before it, and ids are positive, so no `after=0`).
 */
export function replyPath(discussion: string, replyId: number) {
  return `${discussion}${replyId > 1 ? `?after=${replyId - 1}` : ""}#reply-${replyId}`;
}

/** A topic's id, section and title, for a form that posts in it; undefined when the section has no such topic. */
export async function topicHeading(db: Db, section: SectionId, topicId: string) {
  const topic = await findTopic(db, section, topicId);
  if (!topic) return undefined;
  readsFrom(tag.topic(topic.id));
  return { id: topic.id, section: topic.section, title: topic.title };
}

type TopicRow = Awaited<ReturnType<typeof listTopics>>[number];

/**
 * A topic as pages show it: posts are discussions plus replies, and pages say which is which (a
 * topic of one discussion with four replies reads "5 posts" beside a list of one). Both counts are
 * columns of the topic row, kept by the forum service, so a list of topics is one query.
 */
export function topicSummary(t: TopicRow) {
  const discussions = Number(t.discussion_count);
  const replies = Number(t.reply_count);
  return {
    id: t.id,
    section: t.section,
    title: t.title,
    description: t.description,
    posts: discussions + replies,
    discussions,
    replies,
    members: Number(t.member_count),
  };
}

/** A section's topics with their counts: any post, topic or membership in the section changes them. */
export async function sectionTopics(db: Db, section: SectionId, limit?: number) {
  readsFrom(tag.section(section));
  return (await listTopics(db, section, limit)).map(topicSummary);
}

export const ALL_SECTIONS: readonly SectionId[] = ["monastery", "battlefield"];

/**
 * Featured discussions of one section or of both: a reply anywhere in a section may move its
 * "busiest this week", so the list reads the section's tag.
 */
export async function featuredDiscussionSummaries(db: Db, options: { section?: SectionId; limit?: number; now?: Date }) {
  readsFrom(...(options.section ? [options.section] : ALL_SECTIONS).map(tag.section));
  const rows = withAuthors(await featuredDiscussions(db, options));
  return rows.map((d) => ({
    id: d.id,
    title: d.title,
    href: discussionPath(d.section, d.topic_id, d),
    excerpt: d.excerpt,
    replies: Number(d.reply_count),
    topicId: d.topic_id,
    topicTitle: d.topic_title,
    section: d.section,
    author: d.author,
  }));
}
