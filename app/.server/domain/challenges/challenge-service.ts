import { settleCheckInReminder } from "../notifications/check-in-reminders";
import { indexSearch } from "../../db/search/search-documents";
import type { AppServices, Viewer } from "../../context";
import { engineOf, type Db } from "../../db/connect";
import type { PathId } from "~/lib/domain-values";
import { addDays, formatDay, localDay } from "~/lib/calendar-days";
import { CHALLENGE_RANK } from "~/lib/privileges";
import { isRankAtLeast, rankById } from "~/lib/ranks";
import type { Virtue } from "~/lib/virtues";
import { awardXp, memberRank, settleRank } from "../progression/progression-service";
import { fail, writeAllowed, type Outcome } from "../outcome";
import { boundKey } from "../submission-key";
import { tag, wrote } from "../../cache/page-tags";
import {
  completeAttempt,
  failAttempt,
  findBySubmissionKey,
  findChallenge,
  findOpenAttempt,
  insertAttempt,
  insertChallenge,
  insertCheckIn,
  insertChallengeVirtues,
  lockAttempt,
  reviewChallenge,
} from "./challenge-repository";
import { isAdvisor, memberTimeZone } from "../accounts/member-repository";

export type { Outcome };

/**
 * Challenges (issue 11, ADR 0022): joining, daily check-ins on the member's own calendar,
 * completing (25 XP, and the virtues it trains advance), failing when the length runs out, and
 * creating, proposing and reviewing challenges. Every rule is checked here, on the server, whatever
 * the page showed.
 */

export const CHALLENGE_MESSAGES = {
  notFound: "Challenge not found",
  alreadyOn: "You are already on this challenge.",
  alreadyCompleted: "You have already completed this challenge.",
  notOn: "Join this challenge before checking in.",
  alreadyCheckedIn: "You have already checked in to this challenge today. Come back tomorrow.",
  reviewOnly: "Only advisors and admins review proposed challenges.",
  notProposal: "This challenge is no longer waiting for review.",
} as const;

export const ranOutMessage = (endsOn: string) =>
  `This attempt ran out on ${formatDay(endsOn)} before reaching its check-ins. Join the challenge again to start over.`;

export const proposeRankMessage = () => {
  const rank = rankById(CHALLENGE_RANK);
  return `Proposing challenges unlocks at the ${rank.label} rank (${rank.minXp} XP).`;
};

/** Advisors and admins publish challenges directly and review what sages propose. */
export async function mayPublish(db: Db, viewer: Viewer): Promise<boolean> {
  return viewer.role === "admin" || (await isAdvisor(db, viewer.id));
}

// ---------------------------------------------------------------- joining and checking in

export async function joinChallenge(
  services: AppServices,
  viewer: Viewer,
  challengeId: number,
  now = new Date(),
): Promise<Outcome<{ attemptId: number; startsOn: string; endsOn: string }>> {
  const { db } = services;
  const challenge = await findChallenge(db, challengeId);
  if (!challenge || challenge.status !== "published") return fail(404, CHALLENGE_MESSAGES.notFound);
  const today = localDay(now, await memberTimeZone(db, viewer.id));
  // The members count shows on the challenge's page and its card.
  wrote(tag.challenge(challengeId), tag.challenges);
  return db.transaction().execute(async (trx) => {
    const open = await findOpenAttempt(trx, challengeId, viewer.id);
    if (open?.status === "completed") return fail(409, CHALLENGE_MESSAGES.alreadyCompleted);
    if (open && open.ends_on >= today) return fail(409, CHALLENGE_MESSAGES.alreadyOn);
    // An attempt past its last day failed; the member starts over.
    if (open) await failAttempt(trx, open.id);
    const endsOn = addDays(today, challenge.length_days - 1);
    const id = await insertAttempt(trx, {
      challenge_id: challengeId,
      member_id: viewer.id,
      starts_on: today,
      ends_on: endsOn,
      created_at: now.toISOString(),
    });
    // Another join of the same member won the race (the partial unique index).
    if (id === null) return fail(409, CHALLENGE_MESSAGES.alreadyOn);
    return { ok: true as const, value: { attemptId: id, startsOn: today, endsOn } };
  });
}

export interface CheckInResult {
  day: string;
  checkIns: number;
  required: number;
  completed: boolean;
}

/**
 * One check-in per attempt per calendar day in the member's zone; 1 XP once a day however many
 * challenges (the ledger's subject is the day); on reaching the required check-ins within the
 * length the attempt completes and pays 25 XP once (the subject is the attempt).
 */
export async function checkIn(services: AppServices, viewer: Viewer, challengeId: number, now = new Date()): Promise<Outcome<CheckInResult>> {
  const { db } = services;
  const challenge = await findChallenge(db, challengeId);
  if (!challenge || challenge.status !== "published") return fail(404, CHALLENGE_MESSAGES.notFound);
  const today = localDay(now, await memberTimeZone(db, viewer.id));
  const at = now.toISOString();
  // A check-in that completes the attempt moves the completed count; the XP is the profile's (awardXp).
  wrote(tag.challenge(challengeId), tag.challenges);
  return db.transaction().execute(async (trx) => {
    const found = await findOpenAttempt(trx, challengeId, viewer.id);
    if (!found) return fail(403, CHALLENGE_MESSAGES.notOn);
    // Two tabs checking in at once queue here; the second then finds the day taken.
    if (engineOf(trx) === "postgres") await lockAttempt(trx, found.id);
    const attempt = (await findOpenAttempt(trx, challengeId, viewer.id))!;
    if (attempt.status === "completed") return fail(409, CHALLENGE_MESSAGES.alreadyCompleted);
    if (today > attempt.ends_on) {
      await failAttempt(trx, attempt.id);
      return fail(409, ranOutMessage(attempt.ends_on));
    }
    const checkIns = await insertCheckIn(trx, attempt.id, today, at);
    if (checkIns === null) return fail(409, CHALLENGE_MESSAGES.alreadyCheckedIn);
    // Today's reminder, if one came, is answered (issue 28): it no longer rings the bell.
    await settleCheckInReminder(trx, viewer.id, attempt.id, today, now);
    await awardXp(trx, viewer.id, "challenge.check-in", today, now);
    let completed = false;
    if (checkIns >= challenge.check_ins_required && (await completeAttempt(trx, attempt.id, at))) {
      // The completion raised virtue levels, which master's rank asks for: the award settles the
      // stored rank after the attempt is marked completed; settle it here if nothing was awarded.
      if (!(await awardXp(trx, viewer.id, "challenge.completed", attempt.id, now))) await settleRank(trx, viewer.id);
      completed = true;
    }
    return { ok: true as const, value: { day: today, checkIns, required: challenge.check_ins_required, completed } };
  });
}

// ---------------------------------------------------------------- creating, proposing, reviewing

export interface ChallengeInput {
  title: string;
  description: string;
  path: PathId;
  virtues: Virtue[];
  lengthDays: number;
  checkInsRequired: number;
  submissionKey: string;
}

/**
 * The form's key bound to every field of the challenge (ADR 0052): the same form sent twice is one
 * challenge, another challenge sent with the key of a kept page is a challenge of its own.
 */
function submittedChallengeKey(input: ChallengeInput) {
  const { title, description, path, virtues, lengthDays, checkInsRequired } = input;
  return boundKey(input.submissionKey, [title, description, path, virtues, lengthDays, checkInsRequired]);
}

/**
 * Advisors and admins publish at once; sages and above propose, for an advisor to publish. A double
 * submit (same key, same fields) finds the challenge the first one made.
 */
export async function createChallenge(
  services: AppServices,
  viewer: Viewer,
  input: ChallengeInput,
  now = new Date(),
): Promise<Outcome<{ id: number; status: "published" | "proposed" }>> {
  const { db } = services;
  const publishes = await mayPublish(db, viewer);
  if (!publishes && !isRankAtLeast((await memberRank(db, viewer.id)).id, CHALLENGE_RANK)) return fail(403, proposeRankMessage());
  if (input.checkInsRequired > input.lengthDays || input.lengthDays < 1 || input.checkInsRequired < 1) {
    return fail(400, "Check-ins required cannot exceed the length in days", "checkInsRequired");
  }
  const key = submittedChallengeKey(input);
  const earlier = await findBySubmissionKey(db, viewer.id, key);
  if (earlier) return { ok: true, value: { id: earlier.id, status: earlier.status === "published" ? "published" : "proposed" } };
  const allowed = await writeAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  const status = publishes ? "published" : "proposed";
  const at = now.toISOString();
  // A proposal is seen only on the review page (never kept), but its rows are the challenge tables
  // every list of challenges reads: it names their tag too, as the page-cache audit asks (ADR 0051).
  // Proposals are rare; the lists are rendered again once each.
  wrote(tag.challenges);
  return db.transaction().execute(async (trx) => {
    const id = await insertChallenge(trx, {
      title: input.title,
      description: input.description,
      path: input.path,
      length_days: input.lengthDays,
      check_ins_required: input.checkInsRequired,
      status,
      created_by: viewer.id,
      created_at: at,
      published_at: status === "published" ? at : null,
      submission_key: key,
    });
    if (id === null) {
      const same = (await findBySubmissionKey(trx, viewer.id, key))!;
      return { ok: true as const, value: { id: same.id, status } };
    }
    await insertChallengeVirtues(trx, id, input.virtues);
    // A published challenge is found by its words from the commit on; a proposal once published (issue 30).
    await indexSearch(trx, [{ kind: "challenge", id }]);
    return { ok: true as const, value: { id, status } };
  });
}

export async function reviewProposal(
  services: AppServices,
  viewer: Viewer,
  challengeId: number,
  decision: "publish" | "decline",
  now = new Date(),
): Promise<Outcome<{ id: number }>> {
  const { db } = services;
  if (!(await mayPublish(db, viewer))) return fail(403, CHALLENGE_MESSAGES.reviewOnly);
  const challenge = await findChallenge(db, challengeId);
  if (!challenge) return fail(404, CHALLENGE_MESSAGES.notFound);
  const done = await db.transaction().execute(async (trx) => {
    const reviewed = await reviewChallenge(trx, challengeId, decision === "publish" ? "published" : "declined", viewer.id, now.toISOString());
    if (reviewed) await indexSearch(trx, [{ kind: "challenge", id: challengeId }]);
    return reviewed;
  });
  if (!done) return fail(409, CHALLENGE_MESSAGES.notProposal);
  // Published, it has a page and a card; declined, it shows nowhere, but its row changed all the
  // same (see createChallenge).
  wrote(tag.challenges, tag.challenge(challengeId));
  return { ok: true, value: { id: challengeId } };
}
