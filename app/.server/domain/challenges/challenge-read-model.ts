import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { AttemptStatus } from "../../db/schema";
import type { ChallengeSummary, PathId } from "~/lib/domain-values";
import { daysBetween, localDay } from "~/lib/calendar-days";
import { streaksOf, type Streaks } from "~/lib/streaks";
import { XP } from "~/lib/xp";
import { readsFrom, tag } from "../../cache/page-tags";
import {
  activeAttemptsOf,
  checkInDaysOf,
  findChallenge,
  findLatestAttempt,
  latestAttemptsOf,
  listChallenges,
  participationOf,
  challengeVirtues,
} from "./challenge-repository";
import { memberTimeZone } from "../accounts/member-repository";

/**
 * The earliest calendar day anywhere on Earth right now (UTC-12): an attempt whose last day is on
 * or after it may still be running for its member, so it counts as a member on the challenge.
 */
const earliestDayOnEarth = (now: Date) => localDay(new Date(now.getTime() - 12 * 3_600_000), "UTC");

export type ChallengeOverview = ChallengeSummary;

/** An attempt's status on `today`: active past its last day is a failed one not yet written down. */
const standing = (status: AttemptStatus, endsOn: string, today: string): AttemptStatus => (status === "active" && endsOn < today ? "failed" : status);

async function cards(db: Db, rows: Awaited<ReturnType<typeof listChallenges>>, viewer: Viewer | null, now: Date) {
  const ids = rows.map((r) => r.id);
  const [virtues, participation, mine, zone] = await Promise.all([
    challengeVirtues(db, ids),
    participationOf(db, ids, earliestDayOnEarth(now)),
    viewer ? latestAttemptsOf(db, viewer.id, ids) : Promise.resolve(new Map()),
    viewer ? memberTimeZone(db, viewer.id) : Promise.resolve("UTC"),
  ]);
  const today = localDay(now, zone);
  return rows.map((r): ChallengeOverview => ({
    id: r.id,
    title: r.title,
    description: r.description,
    path: r.path,
    virtues: virtues.get(r.id) ?? [],
    lengthDays: r.length_days,
    checkInsRequired: r.check_ins_required,
    xpReward: XP["challenge.completed"],
    members: participation.get(r.id)!.members,
    completed: participation.get(r.id)!.completed,
    yours: mine.has(r.id) ? standing(mine.get(r.id)!.status, mine.get(r.id)!.ends_on, today) : null,
  }));
}

/** Published challenges, newest first, with counts and the viewer's standing: a fixed number of queries. */
export async function publishedChallenges(db: Db, viewer: Viewer | null, now = new Date()) {
  // A newly published challenge, or a join or completion moving a card's counts.
  readsFrom(tag.challenges);
  return cards(db, await listChallenges(db, "published"), viewer, now);
}

/** Challenges proposed by sages, waiting for an advisor (the review page). */
export async function proposedChallenges(db: Db, now = new Date()) {
  const rows = await listChallenges(db, "proposed");
  const list = await cards(db, rows, null, now);
  return list.map((card, i) => ({ ...card, proposedBy: rows[i].created_by }));
}

export interface AttemptView {
  status: AttemptStatus;
  startsOn: string;
  endsOn: string;
  today: string;
  checkIns: number;
  required: number;
  checkedInToday: boolean;
  /** Days left including today (0 once it ran out). */
  daysLeft: number;
  days: string[];
  streaks: Streaks;
}

export interface ChallengePage {
  challenge: ChallengeOverview & { status: "published" | "proposed" | "declined" };
  attempt: AttemptView | null;
}

/** One challenge, its counts, and the viewer's latest attempt with its calendar and streaks. */
export async function challengePage(db: Db, id: number, viewer: Viewer | null, now = new Date()): Promise<ChallengePage | null> {
  const row = await findChallenge(db, id);
  if (!row) return null;
  readsFrom(tag.challenge(id));
  const [card] = await cards(db, [row], viewer, now);
  let attempt: AttemptView | null = null;
  if (viewer) {
    const latest = await findLatestAttempt(db, id, viewer.id);
    if (latest) {
      const today = localDay(now, await memberTimeZone(db, viewer.id));
      const days = (await checkInDaysOf(db, [latest.id])).get(latest.id) ?? [];
      const status = standing(latest.status, latest.ends_on, today);
      attempt = {
        status,
        startsOn: latest.starts_on,
        endsOn: latest.ends_on,
        today,
        checkIns: Number(latest.check_in_count),
        required: row.check_ins_required,
        checkedInToday: days.includes(today),
        daysLeft: status === "active" ? daysBetween(today, latest.ends_on) + 1 : 0,
        days,
        streaks: streaksOf(days, today),
      };
    }
  }
  return { challenge: { ...card, status: row.status }, attempt };
}

export interface ActiveChallenge {
  id: number;
  title: string;
  path: PathId;
  checkIns: number;
  required: number;
  endsOn: string;
  daysLeft: number;
  checkedInToday: boolean;
  streak: number;
}

/** The member's running challenges for the dashboard, with today's check-in state: three queries. */
export async function activeChallengesOf(db: Db, memberId: string, now = new Date()): Promise<ActiveChallenge[]> {
  const [zone, attempts] = await Promise.all([memberTimeZone(db, memberId), activeAttemptsOf(db, memberId)]);
  const today = localDay(now, zone);
  const running = attempts.filter((a) => a.ends_on >= today);
  const days = await checkInDaysOf(
    db,
    running.map((a) => a.id),
  );
  return running.map((a) => {
    const mine = days.get(a.id) ?? [];
    return {
      id: a.challenge_id,
      title: a.title,
      path: a.path,
      checkIns: Number(a.check_in_count),
      required: a.check_ins_required,
      endsOn: a.ends_on,
      daysLeft: daysBetween(today, a.ends_on) + 1,
      checkedInToday: mine.includes(today),
      streak: streaksOf(mine, today).current,
    };
  });
}
