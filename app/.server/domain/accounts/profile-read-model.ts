import type { Db } from "../../db/connect";
import { readsFrom, tag } from "../../cache/page-tags";
import { discussionPath } from "../forum/section-read-model";
import { standingsOf } from "../progression/progression-service";
import { INTERESTS } from "~/schemas/account";
import { toIso } from "~/lib/dates";
import { VIRTUES } from "~/lib/virtues";
import { nextRankNeeds, type VirtueLevels } from "~/lib/ranks";
import { findProfileByHandle } from "./member-repository";
import { countContributions, recentAnswersBy, recentCreationsBy, recentDiscussionsBy, recentQuestionsBy } from "./profile-repository";

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

/**
 * The public profile (issue 11, item 6): who the member is and what they wrote that others can
 * read (nothing hidden by a moderator or deleted). A fixed number of queries, whatever the counts.
 */
export async function memberProfile(db: Db, handle: string) {
  const member = await findProfileByHandle(db, handle);
  if (!member) return null;
  // Name, bio and rank (member); XP, virtues, counts and the lists of posts (profile).
  readsFrom(tag.member(member.id), tag.profile(member.id));
  const [standings, counts, discussions, questions, answers, creations] = await Promise.all([
    standingsOf(db, [member.id]),
    countContributions(db, member.id),
    recentDiscussionsBy(db, member.id, PROFILE_LIST_SIZE),
    recentQuestionsBy(db, member.id, PROFILE_LIST_SIZE),
    recentAnswersBy(db, member.id, PROFILE_LIST_SIZE),
    recentCreationsBy(db, member.id, PROFILE_LIST_SIZE),
  ]);
  const standing = standings.get(member.id)!;
  return {
    id: member.id,
    name: member.name,
    handle: member.handle,
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
    discussions: discussions.map((d) => ({
      id: d.id,
      title: d.title,
      href: discussionPath(d.section, d.topic_id, d),
      at: toIso(d.created_at),
    })),
    questions: questions.map((q) => ({ id: q.id, title: q.title, href: `/council/${q.id}`, at: toIso(q.created_at) })),
    answers: answers.map((a) => ({
      id: a.id,
      title: a.question_title,
      href: `/council/${a.question_id}#answer-${a.id}`,
      at: toIso(a.created_at),
    })),
    creations: creations.map((c) => ({ id: c.id, title: c.title, href: `/forge/${c.id}`, at: toIso(c.created_at) })),
  };
}

export type MemberProfile = NonNullable<Awaited<ReturnType<typeof memberProfile>>>;

function nextRankOf(xp: number, virtueLevels: VirtueLevels) {
  const needs = nextRankNeeds(xp, virtueLevels);
  if (!needs.next) return null;
  return { label: needs.next.label, xp: needs.xp, virtues: needs.virtues.map((id) => ({ id, level: virtueLevels[id] ?? 0 })) };
}
