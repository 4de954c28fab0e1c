import { CalendarDays } from "~/components/ui/icons/calendar-days";
import { CheckCircle2 } from "~/components/ui/icons/check-circle-2";
import { Trophy } from "~/components/ui/icons/trophy";
import { Users } from "~/components/ui/icons/users";
import { Link } from "~/components/ui/link";
import { VirtueBadge } from "~/components/community/badges";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import type { ChallengeSummary } from "~/lib/domain-values";
import { formatCount, plural } from "~/lib/utils";
import { PATH_LABEL } from "~/lib/paths";

export type { ChallengeSummary };

const YOURS: Record<NonNullable<ChallengeSummary["yours"]>, string> = {
  active: "You're on this",
  completed: "You completed it",
  failed: "Your last attempt ran out",
};

/**
 * The facts of a challenge: length, check-ins, reward, members on it and completions. A <dl> holds only
 * dt/dd groups, so each icon sits inside its term with the term's words for screen readers.
 */
export function ChallengeFacts({ challenge }: { challenge: ChallengeSummary }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm text-stone-700">
      <div className="flex items-center gap-1.5">
        <dt className="flex">
          <CalendarDays aria-hidden="true" className="size-4" />
          <span className="sr-only">Length</span>
        </dt>
        <dd>{plural(challenge.lengthDays, "day")}</dd>
      </div>
      <div className="flex items-center gap-1.5">
        <dt className="flex">
          <CheckCircle2 aria-hidden="true" className="size-4" />
          <span className="sr-only">Check-ins required</span>
        </dt>
        <dd>{plural(challenge.checkInsRequired, "check-in")} required</dd>
      </div>
      <div className="flex items-center gap-1.5">
        <dt className="flex">
          <Trophy aria-hidden="true" className="size-4" />
          <span className="sr-only">Reward</span>
        </dt>
        <dd>{formatCount(challenge.xpReward)} XP</dd>
      </div>
      <div className="flex items-center gap-1.5">
        <dt className="flex">
          <Users aria-hidden="true" className="size-4" />
          <span className="sr-only">Members</span>
        </dt>
        <dd>
          {formatCount(challenge.members)} on it · {formatCount(challenge.completed)} completed
        </dd>
      </div>
    </dl>
  );
}

export function ChallengeCard({ challenge }: { challenge: ChallengeSummary }) {
  return (
    <Card className="flex flex-col gap-4 p-6" data-testid="challenge-card">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={challenge.path}>{PATH_LABEL[challenge.path]}</Badge>
        {challenge.virtues.map((v) => (
          <VirtueBadge key={v} virtue={v} />
        ))}
      </div>
      <h3 className="text-lg font-semibold">
        <Link to={`/challenges/${challenge.id}`} className="underline-offset-4 hover:underline">
          {challenge.title}
        </Link>
      </h3>
      <p className="flex-1 text-sm text-muted">{challenge.description}</p>
      <ChallengeFacts challenge={challenge} />
      {challenge.yours ? <p className="text-sm font-semibold text-stone-800">{YOURS[challenge.yours]}</p> : null}
    </Card>
  );
}
