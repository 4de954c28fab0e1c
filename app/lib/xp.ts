// XP rules (PRODUCT.md §3): the one source that the progression service awards from, the /ranks
// and FAQ pages explain, and the tests check against.

/**
 * XP for each event. Awards go through the ledger, one row per member, kind and subject, so the
 * same post can never pay twice. The order is the order /ranks lists them in.
 */
export const XP = {
  "discussion.started": 5,
  "reply.posted": 2,
  "question.asked": 2,
  "answer.posted": 5,
  "answer.accepted": 15,
  "answer.helpful": 2,
  "creation.shared": 10,
  "creation.liked": 1,
  "challenge.check-in": 1,
  "challenge.completed": 25,
} as const;
export type XpKind = keyof typeof XP;

/**
 * How pages name each kind, keyed by kind so that a new kind cannot go unnamed: as a way to earn XP
 * (/ranks) and as an entry of a member's recent activity (the dashboard). Two tables, not one, so
 * the /ranks page's script carries only its own wording.
 */
export const XP_WAY: Record<XpKind, string> = {
  "discussion.started": "Start a discussion",
  "reply.posted": "Reply in a discussion",
  "question.asked": "Ask a question",
  "answer.posted": "Answer a question",
  "answer.accepted": "Your answer is accepted",
  "answer.helpful": "Your answer is marked helpful",
  "creation.shared": "Share a creation",
  "creation.liked": "Your creation is liked",
  "challenge.check-in": "Challenge check-in (once a day)",
  "challenge.completed": "Complete a challenge",
};
export const XP_ACTIVITY: Record<XpKind, string> = {
  "discussion.started": "Started a discussion",
  "reply.posted": "Replied in a discussion",
  "question.asked": "Asked a question",
  "answer.posted": "Answered a question",
  "answer.accepted": "Your answer was accepted",
  "answer.helpful": "Your answer was marked helpful",
  "creation.shared": "Shared a creation",
  "creation.liked": "Your creation was liked",
  "challenge.check-in": "Checked in to a challenge",
  "challenge.completed": "Completed a challenge",
};

/** The recent-activity line of a ledger entry; a kind outside the rules (the demo's history) is plain XP. */
export function activityOf(kind: string): string {
  return Object.hasOwn(XP_ACTIVITY, kind) ? XP_ACTIVITY[kind as XpKind] : "Earned XP";
}

/** XP from others' votes and likes: these kinds count toward the daily cap. */
export const CAPPED_KINDS: readonly XpKind[] = ["answer.helpful", "creation.liked"];
/** The capped kinds together pay a member at most this much XP a UTC day. */
export const DAILY_VOTE_XP_CAP = 50;
