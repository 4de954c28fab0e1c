import type { PathId } from "./domain-values";

/** The two paths in the order every page lists them: the monk's, then the warrior's. */
export const PATHS = ["monk", "warrior"] as const satisfies readonly PathId[];

/** A path's name alone, as a choice among the two or beside an advisor's specialty says it. */
export const PATH_NAME: Record<PathId, string> = { monk: "Monk", warrior: "Warrior" };

/** A path as a badge or a heading names it. */
export const PATH_LABEL: Record<PathId, string> = { monk: "Monk path", warrior: "Warrior path" };
