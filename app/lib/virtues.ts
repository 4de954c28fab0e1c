/** The six virtues (seed §3). Wisdom, discipline and compassion are the monk's; the rest the warrior's. */
export const VIRTUES = [
  { id: "discipline", label: "Discipline", description: "Consistency in practice and habits", path: "monk" },
  { id: "courage", label: "Courage", description: "Facing fears and challenges", path: "warrior" },
  { id: "wisdom", label: "Wisdom", description: "Applied knowledge and insight", path: "monk" },
  { id: "honor", label: "Honor", description: "Integrity in words and actions", path: "warrior" },
  { id: "resilience", label: "Resilience", description: "Endurance through hardship", path: "warrior" },
  { id: "compassion", label: "Compassion", description: "Understanding toward self and others", path: "monk" },
] as const;

export type Virtue = (typeof VIRTUES)[number]["id"];

export const VIRTUE_IDS = VIRTUES.map((v) => v.id) as [Virtue, ...Virtue[]];

export function virtueById(id: string) {
  return VIRTUES.find((v) => v.id === id);
}

export function isVirtue(id: string): id is Virtue {
  return VIRTUES.some((v) => v.id === id);
}

/** Levels 1 to 3 after 1, 3 and 6 completed challenges that train the virtue (PRODUCT.md §3). */
export function virtueLevel(completedChallenges: number): number {
  if (completedChallenges >= 6) return 3;
  if (completedChallenges >= 3) return 2;
  if (completedChallenges >= 1) return 1;
  return 0;
}

/** The highest level a virtue reaches. */
export const MAX_VIRTUE_LEVEL = 3;

/** The fewest completed challenges that reach a virtue level, read from `virtueLevel` itself. */
export function challengesForLevel(level: number): number {
  let challenges = 0;
  while (virtueLevel(challenges) < level) challenges++;
  return challenges;
}
