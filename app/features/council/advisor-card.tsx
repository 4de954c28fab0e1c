import { ShieldCheck } from "~/components/ui/icons/shield-check";
import { Link } from "~/components/ui/link";
import { Avatar } from "~/components/community/avatar";
import { RankBadge, VirtueBadge } from "~/components/community/badges";
import { Card } from "~/components/ui/card";
import type { RankId } from "~/lib/ranks";
import { plural } from "~/lib/utils";
import type { PathId } from "~/lib/domain-values";

export interface AdvisorSummary {
  name: string;
  handle: string;
  rank: RankId;
  avatar: string | null;
  path: PathId;
  specialty: string;
  virtues: string[];
  questionsAnswered: number;
}

export function AdvisorCard({ advisor }: { advisor: AdvisorSummary }) {
  return (
    <Card className="flex flex-col items-center p-6 text-center">
      <Avatar member={advisor} size="lg" />
      <h3 className="mt-3 text-lg font-semibold">
        <Link to={`/members/${advisor.handle}`} className="hover:underline">
          {advisor.name}
        </Link>
      </h3>
      {/* Rank and path are two things: the rank is earned on the one ladder every member climbs
          (a monk advisor may be a Warlord), the path is what an admin verified them to advise on. */}
      <p className="mt-2 flex items-center gap-1.5 text-xs font-semibold text-stone-700">
        Rank <RankBadge rank={advisor.rank} />
      </p>
      <p className="mt-1 inline-flex items-center gap-1 text-xs font-semibold text-stone-700">
        <ShieldCheck aria-hidden="true" className="size-4" />
        Verified {advisor.path} advisor
      </p>
      <p className="mt-2 text-sm text-muted">{advisor.specialty}</p>
      <div className="mt-3 flex flex-wrap justify-center gap-2">
        {advisor.virtues.map((v) => (
          <VirtueBadge key={v} virtue={v} />
        ))}
      </div>
      <p className="mt-3 text-sm font-medium">{plural(advisor.questionsAnswered, "question")} answered</p>
    </Card>
  );
}
