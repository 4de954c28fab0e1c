import { CheckCircle2 } from "~/components/ui/icons/check-circle-2";
import { Flame } from "~/components/ui/icons/flame";
import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/dashboard";
import { RankBadge, VirtueBadge } from "~/components/community/badges";
import { Button } from "~/components/ui/button";
import { NextRankNeeds } from "~/components/community/next-rank-needs";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-controls";
import { servicesContext } from "~/.server/context";
import { dashboardLists, recentActivity } from "~/.server/domain/accounts/dashboard-read-model";
import { checkIn } from "~/.server/domain/challenges/challenge-service";
import { standingsOf } from "~/.server/domain/progression/progression-service";
import { requireViewer } from "~/.server/session";
import { dashboardDrafts } from "~/.server/domain/writing/draft-service";
import { readForm } from "~/.server/forms";
import { ProgressBar } from "~/features/challenges/progress-bar";
import { RecentPosts, UpcomingEvents, WatchedDiscussions, YoursMark } from "~/features/account/dashboard-lists";
import { FirstSteps } from "~/features/account/first-steps";
import { formatDay } from "~/lib/calendar-days";
import { formatDate } from "~/lib/dates";
import { parseId } from "~/lib/params";
import { nextRankNeeds, rankProgress } from "~/lib/ranks";
import { VIRTUES } from "~/lib/virtues";
import { formatCount, plural } from "~/lib/utils";
import { activityOf } from "~/lib/xp";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard · Inner Peace. Outer Strength." }];

const RECENT_ACTIVITY = 10;

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const { db } = context.get(servicesContext);
  // No read tags here: the dashboard is never kept by the page cache (ADR 0040).
  const [standings, lists, recent] = await Promise.all([
    standingsOf(db, [viewer.id]),
    dashboardLists(db, viewer.id),
    recentActivity(db, viewer.id, RECENT_ACTIVITY),
  ]);
  const { xp, virtueLevels } = standings.get(viewer.id)!;
  const progress = rankProgress(xp, virtueLevels);
  const needs = nextRankNeeds(xp, virtueLevels);
  return {
    name: viewer.name,
    rank: progress.rank.id,
    rankDescription: progress.rank.description,
    xp,
    rankMinXp: progress.rank.minXp,
    next: progress.next ? { id: progress.next.id, label: progress.next.label, minXp: progress.next.minXp } : null,
    needs: { xp: needs.xp, virtues: needs.virtues.map((v) => ({ id: v, level: virtueLevels[v] ?? 0 })) },
    virtues: VIRTUES.filter((v) => (virtueLevels[v.id] ?? 0) > 0).map((v) => ({ id: v.id, level: virtueLevels[v.id]! })),
    active: lists.active,
    watched: lists.watched,
    firstSteps: lists.firstSteps,
    events: lists.events,
    posts: lists.posts,
    // Half-written posts kept by the editor (issue 32), to go back to or discard.
    drafts: await dashboardDrafts(db, viewer),
    recent: recent.map((e) => ({
      id: e.id,
      what: activityOf(e.kind),
      points: Number(e.points),
      at: formatDate(e.created_at),
    })),
  };
}

/** The check-in button on each active challenge posts here and comes back. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const challengeId = parseId((await readForm(request)).get("challengeId"));
  if (!challengeId) return data({ errors: { form: "Unknown challenge" } }, { status: 400 });
  const result = await checkIn(context.get(servicesContext), viewer, challengeId);
  if (!result.ok) return data({ errors: result.errors }, { status: result.status });
  return redirect("/dashboard");
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  const busy = useNavigation().state === "submitting";
  // Progress within the current rank, as a game shows it: "12 / 50 XP to Acolyte" above a bar.
  const band = d.next ? { done: Math.min(d.xp, d.next.minXp) - d.rankMinXp, size: d.next.minXp - d.rankMinXp } : null;
  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="font-serif text-4xl font-bold">Welcome, {d.name}</h1>
      <p className="mt-2 text-stone-700">Your path so far.</p>
      {d.firstSteps ? <FirstSteps steps={d.firstSteps} /> : null}
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
            {d.next && band ? (
              <>
                <p className="text-sm text-stone-700" data-testid="xp-progress">
                  {formatCount(band.done)} / {formatCount(band.size)} XP to {d.next.label}
                </p>
                <ProgressBar label={`Progress to ${d.next.label}`} done={band.done} total={band.size} unit="XP" />
                <NextRankNeeds nextLabel={d.next.label} xp={d.needs.xp} virtues={d.needs.virtues} />
              </>
            ) : (
              <p className="text-sm text-stone-700">You have reached the highest rank. Balance both paths.</p>
            )}
            <Link to="/ranks" className="text-sm font-semibold text-monk-strong underline">
              How ranks are earned
            </Link>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Virtues</CardTitle>
          </CardHeader>
          <CardContent>
            {d.virtues.length === 0 ? (
              <p className="text-sm text-stone-700">
                No virtues trained yet. Complete a{" "}
                <Link to="/challenges" className="font-semibold text-monk-strong underline">
                  challenge
                </Link>{" "}
                to earn your first.
              </p>
            ) : (
              <ul className="flex flex-wrap gap-2" data-testid="virtues">
                {d.virtues.map((v) => (
                  <li key={v.id}>
                    <VirtueBadge virtue={v.id} level={v.level} className="px-3 py-1 text-sm" />
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Recent activity</CardTitle>
          </CardHeader>
          <CardContent>
            {d.recent.length === 0 ? (
              <p className="text-sm text-stone-700">Nothing yet. Every reply, answer and check-in earns XP.</p>
            ) : (
              <ul className="flex flex-col gap-2 text-sm" data-testid="recent-activity">
                {d.recent.map((e) => (
                  <li key={e.id} className="flex justify-between gap-3">
                    <span>{e.what}</span>
                    <span className="whitespace-nowrap text-muted">
                      {e.points > 0 ? `+${e.points}` : e.points} XP · {e.at}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      <div className="mt-10">
        <WatchedDiscussions discussions={d.watched} />
      </div>

      {d.drafts.length > 0 ? (
        <section aria-labelledby="drafts" className="mt-10">
          <h2 id="drafts" className="mb-4 font-serif text-2xl font-bold">
            Drafts
          </h2>
          <ul className="flex flex-col gap-2">
            {d.drafts.map((draft) => (
              <li key={draft.place} className="flex flex-wrap items-center gap-3">
                <Link to={draft.url} className="font-semibold text-monk-strong underline">
                  {draft.label}
                </Link>
                <span className="text-sm text-muted">saved {formatDate(draft.updatedAt)}</span>
                <Form method="post" action="/drafts">
                  <input type="hidden" name="intent" value="discard" />
                  <input type="hidden" name="place" value={draft.place} />
                  <input type="hidden" name="redirectTo" value="/dashboard#drafts" />
                  <Button type="submit" variant="ghost" size="sm" aria-label={`Discard the draft: ${draft.label}`}>
                    Discard
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="active-challenges" className="mt-10">
        <h2 id="active-challenges" className="mb-4 font-serif text-2xl font-bold">
          Active challenges
        </h2>
        <FormAlert>{actionData?.errors ? Object.values(actionData.errors)[0] : null}</FormAlert>
        {d.active.length === 0 ? (
          <p className="text-stone-700">
            You are on no challenge.{" "}
            <Link to="/challenges" className="font-semibold text-monk-strong underline">
              Browse challenges
            </Link>
          </p>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2">
            {d.active.map((c) => (
              <li key={c.id}>
                <Card className="flex flex-col gap-3 p-6" data-testid="active-challenge">
                  <h3 className="text-lg font-semibold">
                    <Link to={`/challenges/${c.id}`} className="underline-offset-4 hover:underline">
                      {c.title}
                    </Link>
                  </h3>
                  <p>
                    <YoursMark label="You're on this" />
                  </p>
                  <p className="text-sm text-stone-700">
                    {c.checkIns} of {c.required} check-ins · {plural(c.daysLeft, "day")} left (until {formatDay(c.endsOn)})
                  </p>
                  <ProgressBar label={`Check-ins for ${c.title}`} done={c.checkIns} total={c.required} unit="check-ins" tone={c.path} />
                  <p className="flex items-center gap-1 text-sm">
                    <Flame aria-hidden="true" className="size-4 text-monk" />
                    Streak: {plural(c.streak, "day")}
                  </p>
                  {c.checkedInToday ? (
                    <p className="flex items-center gap-1 text-sm font-semibold">
                      <CheckCircle2 aria-hidden="true" className="size-4" />
                      Checked in today
                    </p>
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="challengeId" value={c.id} />
                      <Button type="submit" variant={c.path} size="sm" disabled={busy}>
                        Check In
                      </Button>
                    </Form>
                  )}
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="mt-10 grid gap-10 md:grid-cols-2">
        <UpcomingEvents events={d.events} />
        <RecentPosts posts={d.posts} />
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
