import type { Db } from "../../db/connect";
import { readsFrom, tag } from "../../cache/page-tags";
import { discussionPath, replyPath } from "../forum/section-read-model";
import { standingsOf } from "../progression/progression-service";
import { INTERESTS } from "~/schemas/account";
import { toIso } from "~/lib/dates";
import { VIRTUES } from "~/lib/virtues";
import { nextRankNeeds, type VirtueLevels } from "~/lib/ranks";
import { findProfileByHandle } from "./member-repository";
import { encodeActivityCursor, type ActivityCursor } from "../../pagination";
import { CONTRIBUTION_TABS, type ContributionTab } from "~/lib/contributions";
import {
  countContributions,
  recentAnswersBy,
  recentCommentsBy,
  recentCreationsBy,
  recentDiscussionsBy,
  recentQuestionsBy,
  recentRepliesBy,
} from "./profile-repository";

/** How many of each kind of contribution the profile lists; the counts say how many there are in all. */
export const PROFILE_LIST_SIZE = 10;

/** Labels of the join form's interest keys; unknown keys (none today) are left out. */
function interestLabels(json: string): string[] {
  let keys: unknown;
  try {
    keys = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(keys)) return [];
  return INTERESTS.filter((i) => keys.includes(i.id)).map((i) => i.label);
}

/** One of the member's posts as a profile lists it. */
export interface ContributionItem {
  id: number;
  title: string;
  href: string;
  at: string;
}

/** What the profile shows below its header: the latest of each kind, or one kind's page. */
export type ProfileView = { tab: null } | { tab: ContributionTab; before: ActivityCursor | null };

/** Posts on one page of a contributions tab. */
export const CONTRIBUTION_PAGE_SIZE = 20;

/**
 * The public profile (issue 11, item 6; tabs, issue 30): who the member is and what they wrote that
 * others can read (nothing hidden by a moderator or deleted, nor under such a post). A fixed number
 * of queries, whatever the counts.
 */
export async function memberProfile(db: Db, handle: string, view: ProfileView = { tab: null }) {
  const member = await findProfileByHandle(db, handle);
  if (!member) return null;
  // Name, bio and rank (member); XP, virtues, counts and the lists of posts (profile).
  readsFrom(tag.member(member.id), tag.profile(member.id));
  const [standings, counts, shown] = await Promise.all([
    standingsOf(db, [member.id]),
    countContributions(db, member.id),
    view.tab === null
      ? Promise.all(CONTRIBUTION_TABS.map((t) => contributions(db, member.id, t.id, PROFILE_LIST_SIZE, null)))
      : contributions(db, member.id, view.tab, CONTRIBUTION_PAGE_SIZE + 1, view.before).then((items) => [items]),
  ]);
  const standing = standings.get(member.id)!;
  const header = {
    id: member.id,
    name: member.name,
    handle: member.handle,
    avatar: member.avatar,
    bio: member.bio,
    interests: interestLabels(member.interests),
    joinedAt: toIso(member.created_at),
    rank: standing.rank.id,
    xp: standing.xp,
    // What the next rank still needs, as the dashboard says it (issue 11, item 3).
    next: nextRankOf(standing.xp, standing.virtueLevels),
    // In the seed's order; a virtue not yet trained has no badge (PRODUCT.md §3).
    virtues: VIRTUES.flatMap((v) => {
      const level = standing.virtueLevels[v.id];
      return level ? [{ virtue: v.id, level }] : [];
    }),
    counts,
  };
  if (view.tab === null) {
    return {
      ...header,
      tab: null,
      lists: Object.fromEntries(CONTRIBUTION_TABS.map((t, i) => [t.id, shown[i]!])) as Record<ContributionTab, ContributionItem[]>,
    };
  }
  const items = shown[0]!;
  const page = items.slice(0, CONTRIBUTION_PAGE_SIZE);
  const last = page[page.length - 1];
  const older = items.length > CONTRIBUTION_PAGE_SIZE && last ? encodeActivityCursor({ at: last.at, id: last.id }) : null;
  return { ...header, tab: view.tab, items: page, older };
}

/**
 * One kind of the member's posts, newest first. A reply, answer or comment shows only while what it
 * is under shows: the page reads that post's tag too, so hiding it drops this profile at once.
 */
async function contributions(db: Db, memberId: string, tab: ContributionTab, limit: number, before: ActivityCursor | null): Promise<ContributionItem[]> {
  switch (tab) {
    case "discussions":
      return (await recentDiscussionsBy(db, memberId, limit, before)).map((d) => ({
        id: d.id,
        title: d.title,
        href: discussionPath(d.section, d.topic_id, d),
        at: toIso(d.created_at),
      }));
    case "replies": {
      const rows = await recentRepliesBy(db, memberId, limit, before);
      readsFrom(...new Set(rows.map((r) => tag.discussion(r.discussion_id))));
      return rows.map((r) => ({
        id: r.id,
        title: r.title,
        href: replyPath(discussionPath(r.section, r.topic_id, { id: r.discussion_id, slug: r.slug }), r.id),
        at: toIso(r.created_at),
      }));
    }
    case "questions":
      return (await recentQuestionsBy(db, memberId, limit, before)).map((q) => ({
        id: q.id,
        title: q.title,
        href: `/council/${q.id}`,
        at: toIso(q.created_at),
      }));
    case "answers": {
      const rows = await recentAnswersBy(db, memberId, limit, before);
      readsFrom(...new Set(rows.map((a) => tag.question(a.question_id))));
      return rows.map((a) => ({ id: a.id, title: a.question_title, href: `/council/${a.question_id}#answer-${a.id}`, at: toIso(a.created_at) }));
    }
    case "creations":
      return (await recentCreationsBy(db, memberId, limit, before)).map((c) => ({ id: c.id, title: c.title, href: `/forge/${c.id}`, at: toIso(c.created_at) }));
    case "comments": {
      const rows = await recentCommentsBy(db, memberId, limit, before);
      readsFrom(...new Set(rows.map((c) => tag.creation(c.creation_id))));
      return rows.map((c) => ({ id: c.id, title: c.title, href: `/forge/${c.creation_id}#comment-${c.id}`, at: toIso(c.created_at) }));
    }
  }
}

export type MemberProfile = NonNullable<Awaited<ReturnType<typeof memberProfile>>>;

function nextRankOf(xp: number, virtueLevels: VirtueLevels) {
  const needs = nextRankNeeds(xp, virtueLevels);
  if (!needs.next) return null;
  return { label: needs.next.label, xp: needs.xp, virtues: needs.virtues.map((id) => ({ id, level: virtueLevels[id] ?? 0 })) };
}
