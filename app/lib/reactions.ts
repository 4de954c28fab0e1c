/**
 * The reactions a member may give any post (issue 31): a small fixed set fitting a site for both
 * paths, thanks and inspiration for the monk's side, insight and strength for the warrior's. Shared
 * by the service that records them, the bar that shows them and the page that lists who gave them,
 * so each is named once. The Forge's "Like" stays the creation's own (the seed's likes) and is
 * counted with these in the initiate's daily limit.
 */
export const REACTIONS = {
  thanks: { emoji: "🙏", label: "Thanks" },
  inspiring: { emoji: "🔥", label: "Inspiring" },
  insightful: { emoji: "💡", label: "Insightful" },
  strength: { emoji: "💪", label: "Strength" },
} as const;

export type Reaction = keyof typeof REACTIONS;
export const REACTION_NAMES = Object.keys(REACTIONS) as Reaction[];

export function isReaction(value: unknown): value is Reaction {
  return typeof value === "string" && Object.hasOwn(REACTIONS, value);
}

/** How many of each reaction a post has, every reaction present (0 when none). */
export type ReactionCounts = Record<Reaction, number>;

export const noReactions = (): ReactionCounts => ({ thanks: 0, inspiring: 0, insightful: 0, strength: 0 });

/** What a post's reaction bar shows one viewer (issue 31). */
export interface ReactionBar {
  /** `/reactions/<kind>/<id>`: where the form posts and "Who reacted" leads. */
  path: string;
  counts: ReactionCounts;
  /** The viewer's own reactions to the post. */
  mine: readonly Reaction[];
  /** The viewer may react (signed in, not their own post, the post shows). */
  canReact: boolean;
  /** Where the viewer comes back to after reacting: the post's page and anchor. */
  back: string;
  /** The post's flag form, for a member who may flag it (issue 31); null otherwise. */
  flag: string | null;
}
