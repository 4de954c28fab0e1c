import { Badge } from "~/components/ui/badge";
import { rankById, type RankId } from "~/lib/ranks";
import { virtueById } from "~/lib/virtues";
import { cn } from "~/lib/utils";

const RANK_TONE: Record<RankId, "monk" | "warrior" | "neutral"> = {
  initiate: "neutral",
  acolyte: "neutral",
  disciple: "monk",
  sage: "monk",
  samurai: "warrior",
  warlord: "warrior",
  master: "neutral",
};

export function RankBadge({ rank, className }: { rank: RankId; className?: string }) {
  const r = rankById(rank);
  return (
    <Badge tone={RANK_TONE[rank]} title={r.description} className={cn(rank === "master" && "border-ink bg-ink text-white", className)}>
      {r.label}
    </Badge>
  );
}

/** Monk colour for wisdom, discipline and compassion; warrior colour for the rest (seed §3). */
export function VirtueBadge({ virtue, level, className }: { virtue: string; level?: number; className?: string }) {
  const v = virtueById(virtue);
  if (!v) return null;
  return (
    <Badge tone={v.path} title={v.description} className={className}>
      {v.label}
      {level ? <span className="font-normal">· Level {level}</span> : null}
    </Badge>
  );
}
