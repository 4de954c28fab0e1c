import { Plus } from "~/components/ui/icons/plus";
import type { Route } from "./+types/challenges";
import { PageHeader, SectionHeading } from "~/components/community/page-header";
import { ButtonLink } from "~/components/ui/button";
import { servicesContext, viewerContext } from "~/.server/context";
import { publishedChallenges } from "~/.server/domain/challenges/challenge-read-model";
import { mayPublish } from "~/.server/domain/challenges/challenge-service";
import { memberRank } from "~/.server/domain/progression/progression-service";
import { ChallengeCard } from "~/features/challenges/challenge-card";
import { CHALLENGE_RANK } from "~/lib/privileges";
import { isRankAtLeast } from "~/lib/ranks";
import { PATH_LABEL, PATHS } from "~/lib/paths";

export const meta: Route.MetaFunction = () => [
  { title: "Challenges · Inner Peace. Outer Strength." },
  { name: "description", content: "Daily practices on the monk's and the warrior's path: join, check in each day, train the virtues." },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  const [challenges, publishes, rank] = await Promise.all([
    publishedChallenges(db, viewer),
    viewer ? mayPublish(db, viewer) : false,
    viewer ? memberRank(db, viewer.id) : null,
  ]);
  return {
    challenges,
    publishes,
    proposes: !publishes && rank !== null && isRankAtLeast(rank.id, CHALLENGE_RANK),
    proposed: viewer !== null && new URL(request.url).searchParams.get("proposed") === "1",
  };
}

export default function Challenges({ loaderData }: Route.ComponentProps) {
  const { challenges, publishes, proposes, proposed } = loaderData;
  return (
    <>
      <PageHeader
        title="Challenges"
        intro="Daily practices on both paths. Join one, check in once a day, keep your streak, and complete it to train its virtues."
      >
        {publishes ? (
          <>
            <ButtonLink to="/challenges/new" variant="monk">
              <Plus aria-hidden="true" />
              Create a Challenge
            </ButtonLink>
            <ButtonLink to="/challenges/proposals" variant="outline">
              Review Proposals
            </ButtonLink>
          </>
        ) : proposes ? (
          <ButtonLink to="/challenges/new" variant="monk">
            <Plus aria-hidden="true" />
            Propose a Challenge
          </ButtonLink>
        ) : null}
      </PageHeader>
      {proposed ? (
        <p role="status" className="mx-auto mt-8 max-w-6xl rounded-md bg-monk-soft px-4 py-3 font-medium text-monk-strong">
          Your proposal was sent. An advisor will review it.
        </p>
      ) : null}
      {PATHS.map((path) => {
        const list = challenges.filter((c) => c.path === path);
        return (
          <section key={path} aria-labelledby={`path-${path}`} className="mx-auto max-w-6xl px-4 pt-12 last:pb-12">
            <SectionHeading id={`path-${path}`}>{PATH_LABEL[path]}</SectionHeading>
            {list.length === 0 ? (
              <p className="text-muted">No challenges on this path yet.</p>
            ) : (
              <div className="grid gap-6 md:grid-cols-2">
                {list.map((c) => (
                  <ChallengeCard key={c.id} challenge={c} />
                ))}
              </div>
            )}
          </section>
        );
      })}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
