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

/**
 * Why a hidden post is hidden, for those who still see it (its author, the moderators): the badge
 * beside its date; null for a post that shows, or one veiled for the viewer. Made on the server.
 */
export function hiddenBadgeText(post: { hidden: boolean; review: ReviewState | null; veiled: boolean }): string | null {
  if (!post.hidden || post.veiled) return null;
  return post.review === "flags" ? "Under review" : post.review === "approval" ? "Waiting for approval" : "Hidden by a moderator";
}

/**
 * What the author of a post waiting on /review reads on it (issue 31): why nobody else sees it, and
 * that they may still edit it. Made on the server, so the pages' code does not carry the sentences.
 */
export function reviewNoteText(review: ReviewState | null): string | null {
  if (review === "flags")
    return "Members flagged this post and it is hidden while the community reviews it. Only you and the moderators can read it; you can still edit it.";
  if (review === "approval") return "This post waits for a moderator's approval. Only you and the moderators can read it until then; you can still edit it.";
  return null;
}

/** The title everyone but its author and the moderators reads for a discussion, question or creation the flags hid. */
export const UNDER_REVIEW_TITLE = "Under review";

/** The longest warning a moderator sends an author from /review. */
export const REVIEW_WARNING_MAX = 500;
