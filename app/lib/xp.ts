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

/** XP from others' votes and likes: these kinds count toward the daily cap. */
export const CAPPED_KINDS: readonly XpKind[] = ["answer.helpful", "creation.liked"];
/** The capped kinds together pay a member at most this much XP a UTC day. */
export const DAILY_VOTE_XP_CAP = 50;
