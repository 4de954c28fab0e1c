import { MASTER_VIRTUE_LEVEL } from "~/lib/ranks";
import { formatCount } from "~/lib/utils";
import { virtueById, type Virtue } from "~/lib/virtues";

export interface NextRankNeedsProps {
  nextLabel: string;
  /** XP still missing; 0 when only virtues stand in the way. */
  xp: number;
  /** Virtues below the master level, with the level held, when the next rank is master. */
  virtues: { id: Virtue; level: number }[];
}

/** Exactly what the next rank still needs (issue 11: the dashboard and the profile say it alike). */
export function NextRankNeeds({ nextLabel, xp, virtues }: NextRankNeedsProps) {
  return (
    <>
      {xp > 0 ? (
        <p className="text-xs text-muted" data-testid="xp-to-go">
          {formatCount(xp)} XP to go
        </p>
      ) : null}
      {virtues.length > 0 ? (
        <p className="text-sm text-stone-700" data-testid="virtues-needed">
          {nextLabel} also needs every virtue at level {MASTER_VIRTUE_LEVEL}. Still below it:{" "}
          {virtues.map((v) => `${virtueById(v.id)!.label} (level ${v.level})`).join(", ")}. Complete challenges that train them.
        </p>
      ) : null}
    </>
  );
}
