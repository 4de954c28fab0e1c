import type { Db } from "../../db/connect";
import { activeChallengesOf, type ActiveChallenge } from "../challenges/challenge-read-model";
import { memberTimeZone } from "./member-repository";
import { discussionPath } from "../forum/section-read-model";
import type { PathId } from "~/lib/domain-values";
import { formatDate, toIso } from "~/lib/dates";
import { formatInZone } from "~/lib/time-zones";
import { recentAnswersBy, recentCreationsBy, recentDiscussionsBy, recentQuestionsBy, recentRepliesBy } from "./profile-repository";
import { firstStepFacts, showingDiscussions, upcomingEventsGoing } from "./dashboard-repository";
import { readMarkersOf, watchedDiscussionIds } from "../notifications/read-marker-repository";
import { recentXpEvents } from "../progression/xp-repository";

/**
 * What the dashboard adds below its cards for a member finding their way (issue 26 item 4): the
 * first steps still to take, the challenges they are on, the events they are going to and their
 * latest posts, and the discussions they watch with replies they have not read (issue 28). A fixed
 * number of queries (thirteen, fourteen with active challenges), whatever the member
 * wrote or joined (ADR 0049).
 *
 * The dashboard is never kept by the page cache (ADR 0040): nothing here declares a read tag, so
 * every visit reads the database as it is now.
 */

/** How many of the member's latest posts, and of their upcoming events, the dashboard lists. */
export const RECENT_POSTS_SHOWN = 5;
export const UPCOMING_EVENTS_SHOWN = 5;

export type FirstStepId = "forum" | "challenge" | "council" | "forge";

export interface FirstStep {
  id: FirstStepId;
  label: string;
  href: string;
  done: boolean;
}

/** The steps in the order a new member meets the site; each links to where it is taken. */
export const FIRST_STEPS: readonly Omit<FirstStep, "done">[] = [
  { id: "forum", label: "Introduce yourself in a topic", href: "/monastery" },
  { id: "challenge", label: "Join a challenge", href: "/challenges" },
  { id: "council", label: "Ask or answer in the Council", href: "/council" },
  { id: "forge", label: "Share in the Forge", href: "/forge/new" },
];

/** The checklist, or null once every step is done (the list goes away then). */
export function firstSteps(facts: Record<FirstStepId, boolean>): FirstStep[] | null {
  const steps = FIRST_STEPS.map((s) => ({ ...s, done: facts[s.id] }));
  return steps.every((s) => s.done) ? null : steps;
}

export type RecentPostKind = "discussion" | "reply" | "question" | "answer" | "creation";

export interface RecentPost {
  key: string;
  kind: RecentPostKind;
  /** The post's title, or for a reply or answer the title of what it answers. */
  title: string;
  href: string;
  at: string;
  date: string;
}

export interface UpcomingEvent {
  id: number;
  title: string;
  path: PathId;
  startsAt: string;
  start: string;
}

/** A discussion the member watches with replies they have not read (issue 28), linked at the first of them. */
export interface WatchedDiscussion {
  id: number;
  title: string;
  href: string;
  newReplies: number;
}

/** How many watched discussions with new replies the dashboard lists. */
export const WATCHED_SHOWN = 5;

export interface DashboardLists {
  firstSteps: FirstStep[] | null;
  watched: WatchedDiscussion[];
  active: ActiveChallenge[];
  events: UpcomingEvent[];
  posts: RecentPost[];
}

/** The latest `limit` posts of all kinds, newest first (ties by kind order, then id, so the order is stable). */
export function latestPosts(lists: RecentPost[][], limit: number): RecentPost[] {
  return lists
    .flat()
    .sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? 1 : -1))
    .slice(0, limit);
}

export async function dashboardLists(db: Db, memberId: string, now = new Date()): Promise<DashboardLists> {
  const n = RECENT_POSTS_SHOWN;
  const [facts, watched, active, zone, events, discussions, replies, questions, answers, creations] = await Promise.all([
    firstStepFacts(db, memberId),
    watchedWithNewReplies(db, memberId),
    activeChallengesOf(db, memberId, now),
    memberTimeZone(db, memberId),
    upcomingEventsGoing(db, memberId, now.toISOString(), UPCOMING_EVENTS_SHOWN),
    recentDiscussionsBy(db, memberId, n),
    recentRepliesBy(db, memberId, n),
    recentQuestionsBy(db, memberId, n),
    recentAnswersBy(db, memberId, n),
    recentCreationsBy(db, memberId, n),
  ]);
  const post = (kind: RecentPostKind, id: number, title: string, href: string, at: string | Date): RecentPost => ({
    key: `${kind}-${id}`,
    kind,
    title,
    href,
    at: toIso(at),
    date: formatDate(at),
  });
  return {
    firstSteps: firstSteps(facts),
    watched,
    active,
    events: events.map((e) => ({
      id: e.id,
      title: e.title,
      path: e.path,
      startsAt: toIso(e.starts_at),
      // In the member's zone, as the events pages show it to them.
      start: formatInZone(new Date(e.starts_at), zone),
    })),
    posts: latestPosts(
      [
        discussions.map((d) => post("discussion", d.id, d.title, discussionPath(d.section, d.topic_id, d), d.created_at)),
        replies.map((r) =>
          post(
            "reply",
            r.id,
            r.title,
            `${discussionPath(r.section, r.topic_id, { id: r.discussion_id, slug: r.slug })}${replyPage(r.id)}#reply-${r.id}`,
            r.created_at,
          ),
        ),
        questions.map((q) => post("question", q.id, q.title, `/council/${q.id}`, q.created_at)),
        answers.map((a) => post("answer", a.id, a.question_title, `/council/${a.question_id}#answer-${a.id}`, a.created_at)),
        creations.map((c) => post("creation", c.id, c.title, `/forge/${c.id}`, c.created_at)),
      ],
      n,
    ),
  };
}

/** Three queries: the watched ids, those discussions, the member's read markers on them. */
async function watchedWithNewReplies(db: Db, memberId: string): Promise<WatchedDiscussion[]> {
  const rows = await showingDiscussions(db, await watchedDiscussionIds(db, memberId, 50));
  const markers = await readMarkersOf(
    db,
    memberId,
    rows.map((d) => `discussion:${d.id}`),
  );
  return rows
    .map((d) => {
      const marker = markers.get(`discussion:${d.id}`);
      const newReplies = Math.max(0, Number(d.reply_count) - (marker?.seenCount ?? 0));
      const path = discussionPath(d.section, d.topic_id, d);
      return { id: d.id, title: d.title, href: marker && marker.lastSeenId > 0 ? `${path}?after=${marker.lastSeenId}` : path, newReplies };
    })
    .filter((d) => d.newReplies > 0)
    .slice(0, WATCHED_SHOWN);
}

/**
 * The discussion's page that opens with this reply: reply pages are keyset pages of ids (ADR 0017,
 * 0028), so `?after=<id − 1>` starts at it however many replies come before it (a page holds 50).
 */
function replyPage(replyId: number) {
  return replyId > 1 ? `?after=${replyId - 1}` : "";
}

/** The member's latest XP awards, newest first: the dashboard's recent activity. */
export function recentActivity(db: Db, memberId: string, limit: number) {
  return recentXpEvents(db, memberId, limit);
}
