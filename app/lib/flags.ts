import type { RankId } from "./ranks";

/**
 * Flags (issue 31): why a member flags a post, and what a flag weighs. Shared by the flag form, the
 * service that records flags and the review queue, so each reason is worded once.
 */
export const FLAG_REASONS = {
  spam: { label: "Spam", hint: "Advertising, or the same text posted again and again." },
  abusive: { label: "Abusive", hint: "Insults, harassment or threats against a member or a group." },
  off_topic: { label: "Off-topic", hint: "It does not belong where it was posted." },
  other: { label: "Something else", hint: "Say what is wrong in the note." },
} as const;

export type FlagReason = keyof typeof FLAG_REASONS;
export const FLAG_REASON_NAMES = Object.keys(FLAG_REASONS) as FlagReason[];

export function isFlagReason(value: unknown): value is FlagReason {
  return typeof value === "string" && Object.hasOwn(FLAG_REASONS, value);
}

/** The longest note a flag carries. */
export const FLAG_NOTE_MAX = 500;

/**
 * Weights are in hundredths. A post whose pending flags weigh this much is hidden until a moderator
 * decides: three initiates' flags with no record, two from disciples, one from a moderator.
 */
export const FLAG_THRESHOLD = 300;

/** What a flag weighs by its flagger's rank, before their record. */
export const FLAG_RANK_WEIGHT: Readonly<Record<RankId, number>> = {
  initiate: 100,
  acolyte: 100,
  disciple: 150,
  sage: 150,
  samurai: 200,
  warlord: 200,
  master: 200,
};

/**
 * A flag's weight: the rank's, times the flagger's record, (agreed + 1) / (disagreed + 1), kept
 * between a quarter and one and a half. Flags a moderator agreed with raise it, rejected ones lower
 * it; a flagger with no record, or as many of each, counts as the rank says.
 */
export function flagWeight(rank: RankId, record: { agreed: number; disagreed: number }): number {
  const accuracy = (record.agreed + 1) / (record.disagreed + 1);
  return Math.round(FLAG_RANK_WEIGHT[rank] * Math.min(1.5, Math.max(0.25, accuracy)));
}

/**
 * Why a hidden post waits on /review (issue 31): the flags' weight hid it ("flags"), or it is a new
 * member's first post held for approval ("approval"). A post a moderator hid has none.
 */
export type ReviewState = "flags" | "approval";

/** What everyone but its author and the moderators sees in place of a post the flags hid. */
export const UNDER_REVIEW_TEXT = "Hidden while the community reviews it.";

/** The title everyone but its author and the moderators reads for a discussion, question or creation the flags hid. */
export const UNDER_REVIEW_TITLE = "Under review";

/** The longest warning a moderator sends an author from /review. */
export const REVIEW_WARNING_MAX = 500;
