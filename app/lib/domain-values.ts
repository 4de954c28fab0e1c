/**
 * One type per domain value, for the server (database rows, services) and the browser (cards,
 * forms) alike: a value has one name everywhere (issue 9, item 7).
 */

/** The two halves of the community: the Monastery (inner peace) and the Battlefield (outer strength). */
export type SectionId = "monastery" | "battlefield";

/** What a creation in the Forge is. */
export type CreationType = "writing" | "art" | "music" | "projects";

/** The two paths of the site; an advisor answers on one of them. */
export type PathId = "monk" | "warrior";

export type MemberRole = "member" | "moderator" | "admin";

/** A challenge as its cards and its page show it (the read model's overview). */
export interface ChallengeSummary {
  id: number;
  title: string;
  description: string;
  path: PathId;
  virtues: string[];
  lengthDays: number;
  checkInsRequired: number;
  xpReward: number;
  members: number;
  completed: number;
  /** The viewer's latest attempt, as it stands today (an active one past its last day has failed). */
  yours: "active" | "completed" | "failed" | null;
}
