import { Plus } from "~/components/ui/icons/plus";
import type { Route } from "./+types/section";
import { PageHeader, SectionHeading } from "~/components/community/page-header";
import { servicesContext, viewerContext } from "~/.server/context";
import { progressOf } from "~/.server/domain/progression/progression-service";
import { TOPIC_RANK } from "~/lib/privileges";
import { featuredDiscussionSummaries, sectionTopics } from "~/.server/domain/forum/section-read-model";
import { DiscussionCard } from "~/features/forum/discussion-card";
import { SECTIONS, sectionOrNotFound } from "~/features/forum/sections";
import { TopicCard } from "~/features/forum/topic-card";
import { isRankAtLeast, rankById } from "~/lib/ranks";
import { ButtonLink } from "~/components/ui/button";

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const section = loaderData ? SECTIONS[loaderData.section] : null;
  return section
    ? [{ title: `${section.title} · Inner Peace. Outer Strength.` }, { name: "description", content: section.intro }]
    : // Any other single-segment path: this route's ErrorBoundary shows the 404 page, titled as the catch-all's.
      [{ title: "Page not found · Inner Peace. Outer Strength." }];
};

export async function loader({ params, context }: Route.LoaderArgs) {
  const section = sectionOrNotFound(params.section);
  const { db } = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  const [topics, featured, progress] = await Promise.all([
    sectionTopics(db, section),
    featuredDiscussionSummaries(db, { section, limit: 3 }),
    viewer ? progressOf(db, viewer.id) : null,
  ]);
  return {
    section,
    topics,
    featured,
    signedIn: viewer !== null,
    mayCreateTopic: progress ? isRankAtLeast(progress.rank.id, TOPIC_RANK) : false,
  };
}

export default function Section({ loaderData }: Route.ComponentProps) {
  const { section, topics, featured, signedIn, mayCreateTopic } = loaderData;
  const info = SECTIONS[section];
  const unlock = rankById(TOPIC_RANK);
  return (
    <>
      <PageHeader title={info.title} intro={info.intro} tone={info.tone}>
        <ButtonLink to={signedIn ? `/${section}/new` : `/signin?redirectTo=${encodeURIComponent(`/${section}/new`)}`} variant={info.tone}>
          <Plus aria-hidden="true" />
          Create New Topic
        </ButtonLink>
        {mayCreateTopic ? null : (
          <p className="w-full text-sm text-stone-700">
            Creating topics unlocks at the {unlock.label} rank ({unlock.minXp} XP).
          </p>
        )}
      </PageHeader>

      {featured.length > 0 ? (
        <section aria-labelledby="featured" className="mx-auto max-w-6xl px-4 pt-12">
          <SectionHeading id="featured">Featured Discussions</SectionHeading>
          <div className="grid gap-6 md:grid-cols-3">
            {featured.map((d) => (
              <DiscussionCard key={d.id} discussion={d} />
            ))}
          </div>
        </section>
      ) : null}

      <section aria-labelledby="topics" className="mx-auto max-w-6xl px-4 py-12">
        <SectionHeading id="topics">Topics</SectionHeading>
        <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {topics.map((t) => (
            <TopicCard key={t.id} topic={t} />
          ))}
        </div>
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
