import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { RankBadge } from "~/components/community/badges";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { progressOf } from "~/.server/domain/progression/progression-service";
import { requireViewer } from "~/.server/session";
import { formatCount } from "~/lib/utils";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard · Inner Peace. Outer Strength." }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const progress = await progressOf(context.get(servicesContext).db, viewer.id);
  return {
    name: viewer.name,
    rank: progress.rank.id,
    rankDescription: progress.rank.description,
    xp: progress.xp,
    rankMinXp: progress.rank.minXp,
    next: progress.next ? { id: progress.next.id, label: progress.next.label, minXp: progress.next.minXp } : null,
    xpToNext: progress.xpToNext,
    percent: progress.percent,
    needsVirtues: progress.needsVirtues,
  };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const d = loaderData;
  // Progress within the current rank, as a game shows it: "12 / 50 XP to Acolyte" above a bar.
  const band = d.next ? { done: Math.min(d.xp, d.next.minXp) - d.rankMinXp, size: d.next.minXp - d.rankMinXp } : null;
  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <h1 className="font-serif text-4xl font-bold">Welcome, {d.name}</h1>
      <p className="mt-2 text-stone-700">Your path so far.</p>
      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Rank</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <div className="flex items-center gap-3">
              <RankBadge rank={d.rank} className="px-3 py-1 text-sm" />
              <span className="text-sm text-stone-700">{d.rankDescription}</span>
            </div>
            <p className="text-3xl font-bold" data-testid="xp-total">
              {formatCount(d.xp)} XP
            </p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Next rank</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            {d.next ? (
              <>
                <p className="text-sm text-stone-700" data-testid="xp-progress">
                  {d.needsVirtues
                    ? `${d.next.label} also needs every virtue at level 2. Complete challenges to train them.`
                    : `${formatCount(band!.done)} / ${formatCount(band!.size)} XP to ${d.next.label}`}
                </p>
                <div
                  role="progressbar"
                  aria-label={`Progress to ${d.next.label}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={d.percent}
                  aria-valuetext={`${formatCount(band!.done)} of ${formatCount(band!.size)} XP`}
                  className="h-3 overflow-hidden rounded-full bg-stone-200"
                >
                  <div className="h-full rounded-full bg-monk" style={{ width: `${d.percent}%` }} />
                </div>
                {d.needsVirtues ? null : (
                  <p className="text-xs text-muted">
                    {formatCount(d.xpToNext)} XP to go
                  </p>
                )}
              </>
            ) : (
              <p className="text-sm text-stone-700">You have reached the highest rank. Balance both paths.</p>
            )}
            <Link to="/ranks" className="text-sm font-semibold text-monk-strong underline">
              How ranks are earned
            </Link>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
