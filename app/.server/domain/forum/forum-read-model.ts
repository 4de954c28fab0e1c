import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { SectionId } from "~/lib/domain-values";
import { toIso } from "~/lib/dates";
import { readsFrom, tag } from "../../cache/page-tags";
import { withAuthors } from "../progression/authors";
import { encodeActivityCursor, type ActivityCursor, type PageRequest } from "../../pagination";
import { discussionPage, findDiscussionWithTopic, findReply, isTopicMember, replyAuthorsOf, replyPage } from "./forum-repository";
import { parseId } from "~/lib/params";
import { QUOTE_REMOVED, quoteMarkdown } from "~/lib/quotes";
import { findTopic } from "./section-repository";
import { isModerator } from "../accounts/roles";
import { discussionPath, replyPath, topicSummary } from "./section-read-model";
import { markDiscussionRead, newSince, type ReadMarker } from "../notifications/read-markers";
import { hiddenPostsView, postAsShown } from "../flags/under-review";
import { UNDER_REVIEW_TITLE } from "~/lib/flags";
import { previewFactsOf } from "../discovery/previews";
import { discussionWhere } from "../posts/post-places";

/** A topic with one page of its discussions (newest activity first) and links to the pages around. */
export async function topicWithDiscussions(db: Db, viewer: Viewer | null, section: SectionId, topicId: string, request: PageRequest<ActivityCursor>) {
  const topic = await findTopic(db, section, topicId);
  if (!topic) return null;
  // Its counts, its members and its list of discussions; each author reads their own tag.
  readsFrom(tag.topic(topic.id));
  const moderator = isModerator(viewer);
  const [page, joined] = await Promise.all([
    discussionPage(db, topic.id, request, { includeHidden: moderator }),
    viewer ? isTopicMember(db, topic.id, viewer.id) : false,
  ]);
  const rows = withAuthors(page.rows);
  const fresh = await newSince(
    db,
    viewer,
    "discussion",
    rows.map((d) => ({ id: d.id, count: Number(d.reply_count) })),
  );
  const base = `/${section}/${topic.id}`;
  const cursorOf = (row: (typeof rows)[number]) => encodeActivityCursor({ at: toIso(row.last_activity_at), id: row.id });
  return {
    topic: { ...topicSummary(topic), joined },
    discussions: rows.map((d) => ({
      id: d.id,
      title: d.title,
      href: discussionPath(section, topic.id, d),
      excerpt: d.deleted_at ? "[deleted]" : d.excerpt,
      replies: Number(d.reply_count),
      /** Replies since the viewer last read it; null when they never opened it (or are a visitor). */
      newReplies: fresh.get(d.id) ?? null,
      lastActivityAt: toIso(d.last_activity_at),
      author: d.author,
      hidden: d.hidden_at !== null,
      locked: d.locked_at !== null,
      featured: d.featured_at !== null,
    })),
    pages: {
      first: page.hasNewer ? base : null,
      newer: page.hasNewer && rows.length > 0 ? `${base}?before=${cursorOf(rows[0])}` : null,
      older: page.hasOlder && rows.length > 0 ? `${base}?after=${cursorOf(rows[rows.length - 1])}` : null,
      last: page.hasOlder ? `${base}?page=last` : null,
    },
  };
}

/**
 * A discussion's canonical address, or null when there is no such discussion. Actions redirect
 * here rather than to the address the form was posted to, which is the client's to make up.
 */
export async function discussionAddress(db: Db, id: number) {
  return (await discussionWithAddress(db, id))?.path ?? null;
}

/** The discussion's row (with its topic's section and title) and its canonical address, in one query. */
export async function discussionWithAddress(db: Db, id: number) {
  const row = await findDiscussionWithTopic(db, id);
  return row ? { row, path: discussionPath(row.topic_section as SectionId, row.topic_id, row) } : null;
}

/** A discussion, its opening post and one page of replies, rendered for the viewer. */
export async function discussionWithReplies(db: Db, viewer: Viewer | null, id: number, request: PageRequest<number>, marker?: ReadMarker | null) {
  const moderator = isModerator(viewer);
  // The replies do not wait for the discussion: on PostgreSQL the two queries run at once. Hidden
  // replies come too: which of them this viewer sees, and how, is hiddenPostsView's to say (issue
  // 31); a page holding one a moderator hid shows one reply fewer than the rest.
  const [row, page] = await Promise.all([findDiscussionWithTopic(db, id), replyPage(db, id, request, { includeHidden: true })]);
  if (!row) return null;
  const [opening] = await hiddenPostsView(db, viewer, "discussion", [row]);
  if (!opening) return null;
  // The topic's title is shown too, but a topic is never renamed: a reply elsewhere in the topic
  // must not invalidate this page. A review's decision on any post here names this tag.
  readsFrom(tag.discussion(id));
  const topic = { id: row.topic_id, section: row.topic_section, title: row.topic_title };
  const [discussion] = withAuthors([opening]);
  // A discussion the flags hid shows none of its words, its replies' neither.
  const replies = opening.veiled ? [] : withAuthors(await hiddenPostsView(db, viewer, "reply", page.rows));
  const path = discussionPath(topic.section, topic.id, row);
  const [answered] = await Promise.all([
    answeredReplies(db, moderator, path, replies),
    // What the member has now been shown is no longer new to them (issue 28).
    viewer && !opening.veiled
      ? markDiscussionRead(
          db,
          viewer,
          { id, replies: Number(row.reply_count) },
          { lastReplyId: page.rows.at(-1)?.id ?? null, lastPage: !page.hasLater },
          marker,
        )
      : undefined,
  ]);
  return {
    topic: { id: topic.id, section: topic.section, title: topic.title },
    path,
    // What its shared link's picture shows (issue 30), from the rows read here: its route reads the same.
    preview: previewFactsOf(
      { title: row.title, where: discussionWhere(topic.section), deleted: row.deleted_at !== null, hidden: row.hidden_at !== null },
      discussion.author.name,
    ),
    discussion: {
      ...postAsShown(discussion, viewer),
      slug: discussion.slug,
      title: discussion.veiled ? UNDER_REVIEW_TITLE : discussion.title,
      excerpt: discussion.deleted_at || discussion.veiled ? "" : discussion.excerpt,
      locked: discussion.locked_at !== null,
      featured: discussion.featured_at !== null,
      replies: Number(discussion.reply_count),
    },
    replies: replies.map((r) => ({
      ...postAsShown(r, viewer),
      replyTo: r.reply_to_id === null ? null : (answered.get(Number(r.reply_to_id)) ?? null),
    })),
    pages: opening.veiled
      ? { first: null, earlier: null, later: null, last: null }
      : {
          first: page.hasEarlier ? path : null,
          earlier: page.hasEarlier && page.rows.length > 0 ? `${path}?before=${page.rows[0].id}` : null,
          later: page.hasLater && page.rows.length > 0 ? `${path}?after=${page.rows[page.rows.length - 1].id}` : null,
          last: page.hasLater ? `${path}?page=last` : null,
        },
    moderator,
  };
}

/**
 * The replies these replies answer (issue 32), by id: the author's name and the answered reply's
 * place, for "in reply to Omar". One query, none when no reply here names one; a reply hidden from
 * this viewer is not named. The names are read from members, so the page reads their tags.
 */
async function answeredReplies(db: Db, moderator: boolean, path: string, replies: ReadonlyArray<{ reply_to_id: number | null }>) {
  const ids = [...new Set(replies.flatMap((r) => (r.reply_to_id === null ? [] : [Number(r.reply_to_id)])))];
  const answered = new Map<number, { name: string; url: string }>();
  for (const row of await replyAuthorsOf(db, ids)) {
    if (row.hidden_at !== null && !moderator) continue;
    readsFrom(tag.member(row.author_id));
    answered.set(Number(row.id), { name: row.name, url: replyPath(path, Number(row.id)) });
  }
  return answered;
}

/**
 * What the reply form starts with when a member follows a reply's Quote or Reply link (issue 32):
 * the reply it will answer, and for Quote its text quoted with a link back. A reply of another
 * discussion, or none, gives an empty form; one hidden from the viewer or deleted is quoted as
 * "[quoted post removed]" and not answered. A GET's parameters: a bad one changes nothing.
 */
export async function replyDraft(db: Db, viewer: Viewer | null, discussionId: number, path: string, params: URLSearchParams) {
  const quote = parseId(params.get("quote"));
  const answering = quote ?? parseId(params.get("replyTo"));
  const empty = { body: "", replyTo: null };
  if (!viewer || !answering) return empty;
  const row = await findReply(db, answering);
  if (!row || row.discussion_id !== discussionId) return empty;
  const readable = row.deleted_at === null && (row.hidden_at === null || isModerator(viewer));
  if (!readable) return { body: quote ? QUOTE_REMOVED : "", replyTo: null };
  readsFrom(tag.member(row.author_id));
  return {
    body: quote ? quoteMarkdown(row.body, row.author_name, replyPath(path, row.id)) : "",
    replyTo: { id: row.id, name: row.author_name },
  };
}
