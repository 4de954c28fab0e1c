import { Plus } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/section";
import { PageHeader, SectionHeading } from "~/components/community/page-header";
import { servicesContext, viewerContext } from "~/.server/context";
import { progressOf } from "~/.server/domain/progression/progression-service";
import { featuredDiscussionSummaries, sectionTopics } from "~/.server/domain/sections/section-pages";
import { DiscussionCard } from "~/features/sections/discussion-card";
import { SECTIONS, sectionFromPath } from "~/features/sections/sections";
import { TopicCard } from "~/features/sections/topic-card";
import { isRankAtLeast, rankById } from "~/lib/ranks";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/utils";

/** PRODUCT.md §3: creating topics is the disciple's privilege. */
const TOPIC_RANK = "disciple" as const;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const section = loaderData ? SECTIONS[loaderData.section] : null;
  return section
    ? [{ title: `${section.title} · Inner Peace. Outer Strength.` }, { name: "description", content: section.intro }]
    : [];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const section = sectionFromPath(new URL(request.url).pathname);
  if (!section) throw data("Not found", { status: 404 });
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
        <details className="group">
          <summary className={cn(buttonVariants({ variant: info.tone }), "cursor-pointer list-none [&::-webkit-details-marker]:hidden")}>
            <Plus aria-hidden="true" />
            Create New Topic
          </summary>
          <div className="mt-3 max-w-md rounded-md border border-line bg-white p-4 text-sm">
            {!signedIn ? (
              <p>
                <Link to={`/signin?redirectTo=/${section}`} className="font-semibold underline">
                  Sign in
                </Link>{" "}
                to create a topic. Creating topics unlocks at the {unlock.label} rank ({unlock.minXp} XP).
              </p>
            ) : mayCreateTopic ? (
              <p>
                As a {unlock.label} or higher you may create topics. The topic form opens with the discussions
                release.
              </p>
            ) : (
              <p>
                Creating topics unlocks at the {unlock.label} rank ({unlock.minXp} XP). Start discussions and reply
                to earn experience.
              </p>
            )}
          </div>
        </details>
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
