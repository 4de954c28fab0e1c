import { VIRTUES, type Virtue } from "./virtues";

/** The rank ladder, in order (seed §3; thresholds from PRODUCT.md §3). */
export const RANKS = [
  { id: "initiate", label: "Initiate", description: "Beginning the journey", minXp: 0 },
  { id: "acolyte", label: "Acolyte", description: "Learning the fundamentals", minXp: 50 },
  { id: "disciple", label: "Disciple", description: "Practicing the monk's way", minXp: 150 },
  { id: "sage", label: "Sage", description: "Mastering inner peace", minXp: 400 },
  { id: "samurai", label: "Samurai", description: "Training in warrior skills", minXp: 800 },
  { id: "warlord", label: "Warlord", description: "Leading with strength", minXp: 1500 },
  { id: "master", label: "Master", description: "Balancing both paths", minXp: 3000 },
] as const;

export type RankId = (typeof RANKS)[number]["id"];
export type Rank = (typeof RANKS)[number];

/** Master also needs every virtue at this level or higher (PRODUCT.md §3). */
export const MASTER_VIRTUE_LEVEL = 2;

export type VirtueLevels = Partial<Record<Virtue, number>>;

export function qualifiesForMaster(levels: VirtueLevels): boolean {
  return VIRTUES.every((v) => (levels[v.id] ?? 0) >= MASTER_VIRTUE_LEVEL);
}

export function isRankId(id: string): id is RankId {
  return RANKS.some((r) => r.id === id);
}

export function rankById(id: RankId): Rank {
  return RANKS.find((r) => r.id === id)!;
}

/** The rank a member holds with this much XP and these virtue levels. */
export function rankFor(xp: number, virtueLevels: VirtueLevels = {}): Rank {
  let held: Rank = RANKS[0];
  for (const rank of RANKS) {
    if (xp < rank.minXp) break;
    if (rank.id === "master" && !qualifiesForMaster(virtueLevels)) break;
    held = rank;
  }
  return held;
}

export interface RankProgress {
  rank: Rank;
  xp: number;
  next: Rank | null;
  /** XP still needed for the next rank; 0 when only virtues stand between the member and it. */
  xpToNext: number;
  /** 0 to 100: how far from this rank's threshold to the next one. */
  percent: number;
  /** True when the XP is there for master but the virtues are not. */
  needsVirtues: boolean;
}

export function rankProgress(xp: number, virtueLevels: VirtueLevels = {}): RankProgress {
  return progressAt(xp, rankFor(xp, virtueLevels));
}

/** Progress from a rank already known (the member row's, which rankFor gave when the XP moved). */
export function progressAt(xp: number, rank: Rank): RankProgress {
  const index = RANKS.findIndex((r) => r.id === rank.id);
  const next = RANKS[index + 1] ?? null;
  if (!next) return { rank, xp, next: null, xpToNext: 0, percent: 100, needsVirtues: false };
  const span = next.minXp - rank.minXp;
  const done = Math.min(xp - rank.minXp, span);
  return {
    rank,
    xp,
    next,
    xpToNext: Math.max(next.minXp - xp, 0),
    percent: Math.floor((done / span) * 100),
    needsVirtues: next.id === "master" && xp >= next.minXp,
  };
}

export function isRankAtLeast(rank: RankId, floor: RankId): boolean {
  return RANKS.findIndex((r) => r.id === rank) >= RANKS.findIndex((r) => r.id === floor);
}

/** What stands between a member and the next rank: XP still to earn and virtues below the level asked. */
export interface NextRankGap {
  next: Rank | null;
  xp: number;
  /** Virtues (ids) still under MASTER_VIRTUE_LEVEL when the next rank is master; otherwise empty. */
  virtues: Virtue[];
}

export function nextRankNeeds(xp: number, virtueLevels: VirtueLevels = {}): NextRankGap {
  const { next } = rankProgress(xp, virtueLevels);
  if (!next) return { next: null, xp: 0, virtues: [] };
  const virtues = next.id === "master" ? VIRTUES.filter((v) => (virtueLevels[v.id] ?? 0) < MASTER_VIRTUE_LEVEL).map((v) => v.id) : [];
  return { next, xp: Math.max(next.minXp - xp, 0), virtues };
}
