import { Flame } from "~/components/ui/icons/flame";
import { Trophy } from "~/components/ui/icons/trophy";
import { data, Form, redirect, useNavigation } from "react-router";
import { ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/challenge";
import { VirtueBadge } from "~/components/community/badges";
import { SignInPrompt } from "~/components/community/sign-in-prompt";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-controls";
import { servicesContext, viewerContext } from "~/.server/context";
import { challengePage } from "~/.server/domain/challenges/challenge-read-model";
import { checkIn, joinChallenge } from "~/.server/domain/challenges/challenge-service";
import { requireViewer } from "~/.server/session";
import { readForm } from "~/.server/forms";
import { ChallengeFacts } from "~/features/challenges/challenge-card";
import { CheckInCalendar } from "~/features/challenges/check-in-calendar";
import { ProgressBar } from "~/features/challenges/progress-bar";
import { formatDay } from "~/lib/calendar-days";
import { parseId } from "~/lib/params";
import { plural } from "~/lib/utils";
import { PATH_LABEL } from "~/lib/paths";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [{ title: `${loaderData.challenge.title} · Challenges` }, { name: "description", content: loaderData.challenge.description }]
    : [{ title: "Challenge not found" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.challengeId);
  const viewer = context.get(viewerContext);
  const page = id ? await challengePage(context.get(servicesContext).db, id, viewer) : null;
  // Proposals are seen on the review page only; declined ones nowhere.
  if (!page || page.challenge.status !== "published") throw data("Not found", { status: 404 });
  return { ...page, signedIn: viewer !== null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = parseId(params.challengeId);
  if (!id) throw data("Not found", { status: 404 });
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  const intent = String((await readForm(request)).get("intent") ?? "");
  const result = intent === "join" ? await joinChallenge(services, viewer, id) : intent === "check-in" ? await checkIn(services, viewer, id) : null;
  if (!result) throw data("Unknown action", { status: 400 });
  if (!result.ok) {
    if (result.status === 404) throw data("Not found", { status: 404 });
    return data({ errors: result.errors }, { status: result.status });
  }
  return redirect(`/challenges/${id}`);
}

export default function Challenge({ loaderData, actionData }: Route.ComponentProps) {
  const { challenge, attempt, signedIn } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const running = attempt?.status === "active";
  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <ParentLink to="/challenges">Challenges</ParentLink>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <Badge tone={challenge.path}>{PATH_LABEL[challenge.path]}</Badge>
        {challenge.virtues.map((v) => (
          <VirtueBadge key={v} virtue={v} />
        ))}
      </div>
      <h1 className="mt-3 font-serif text-4xl font-bold">{challenge.title}</h1>
      <p className="mt-4 text-lg text-stone-700">{challenge.description}</p>
      <div className="mt-6">
        <ChallengeFacts challenge={challenge} />
      </div>
      <p className="mt-4 text-sm text-muted">
        Complete {plural(challenge.checkInsRequired, "check-in")} within {plural(challenge.lengthDays, "day")} of joining, one a day on your own calendar.
        Completing earns {challenge.xpReward} XP and trains {challenge.virtues.length === 1 ? "its virtue" : "both its virtues"}.
      </p>

      <section aria-labelledby="your-progress" className="mt-10">
        <h2 id="your-progress" className="mb-4 font-serif text-2xl font-bold">
          Your progress
        </h2>
        <FormAlert>{actionData?.errors ? Object.values(actionData.errors)[0] : null}</FormAlert>
        {!signedIn ? (
          <SignInPrompt returnTo={`/challenges/${challenge.id}`} action="join this challenge" />
        ) : !attempt || attempt.status === "failed" ? (
          <div className="flex flex-col gap-3">
            {attempt ? (
              <p className="text-stone-700">
                Your last attempt ran out on {formatDay(attempt.endsOn)} with {attempt.checkIns} of {attempt.required} check-ins. You can start again.
              </p>
            ) : (
              <p className="text-stone-700">You are not on this challenge yet.</p>
            )}
            <Form method="post">
              <Button type="submit" name="intent" value="join" variant={challenge.path} disabled={busy}>
                {attempt ? "Start Again" : "Join Challenge"}
              </Button>
            </Form>
          </div>
        ) : (
          <div className="grid gap-6 md:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle>{attempt.status === "completed" ? "Completed" : "Check-ins"}</CardTitle>
              </CardHeader>
              <CardContent className="flex flex-col gap-4">
                <p className="text-sm text-stone-700" data-testid="attempt-progress">
                  {attempt.checkIns} of {attempt.required} check-ins
                </p>
                <ProgressBar label="Check-ins" done={attempt.checkIns} total={attempt.required} unit="check-ins" tone={challenge.path} />
                <dl className="grid grid-cols-2 gap-3 text-sm">
                  <div>
                    <dt className="text-muted">Current streak</dt>
                    <dd className="flex items-center gap-1 text-xl font-bold" data-testid="current-streak">
                      <Flame aria-hidden="true" className="size-5 text-monk" />
                      {plural(attempt.streaks.current, "day")}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-muted">Best streak</dt>
                    <dd className="text-xl font-bold" data-testid="best-streak">
                      {plural(attempt.streaks.best, "day")}
                    </dd>
                  </div>
                </dl>
                {attempt.status === "completed" ? (
                  <p className="flex items-center gap-2 font-semibold text-monk-strong">
                    <Trophy aria-hidden="true" className="size-5" />
                    You completed this challenge: {challenge.xpReward} XP earned.
                  </p>
                ) : running && attempt.checkedInToday ? (
                  <p className="font-semibold text-stone-800">Checked in today. Come back tomorrow.</p>
                ) : (
                  <Form method="post">
                    <Button type="submit" name="intent" value="check-in" variant={challenge.path} disabled={busy}>
                      Check In Today
                    </Button>
                  </Form>
                )}
                {running ? (
                  <p className="text-xs text-muted">
                    {plural(attempt.daysLeft, "day")} left, until {formatDay(attempt.endsOn)}. One missed day in any seven is a rest day that keeps your streak.
                  </p>
                ) : null}
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>Calendar</CardTitle>
              </CardHeader>
              <CardContent>
                <CheckInCalendar startsOn={attempt.startsOn} endsOn={attempt.endsOn} today={attempt.today} days={attempt.days} />
              </CardContent>
            </Card>
          </div>
        )}
      </section>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
