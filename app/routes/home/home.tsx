import { Brain } from "~/components/ui/icons/brain";
import { Flame } from "~/components/ui/icons/flame";
import { Mountain } from "~/components/ui/icons/mountain";
import { Swords } from "~/components/ui/icons/swords";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/home";
import { RankBadge, VirtueBadge } from "~/components/community/badges";
import { SectionHeading } from "~/components/community/page-header";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { useViewer } from "~/components/layout/use-viewer";
import { servicesContext } from "~/.server/context";
import { homePage } from "~/.server/domain/home-read-model";
import { CreationCard } from "~/features/forge/creation-card";
import { QuestionCard } from "~/features/council/question-card";
import { DiscussionCard } from "~/features/forum/discussion-card";
import { TopicCard } from "~/features/forum/topic-card";
import { RANKS } from "~/lib/ranks";
import { siteStructuredData } from "~/.server/domain/discovery/structured-data";
import { VIRTUES } from "~/lib/virtues";

const SITE_NAME = "Inner Peace. Outer Strength.";
const DESCRIPTION = "A digital sanctuary for self-discipline, resilience and purpose. Train the mind in the Monastery, the body on the Battlefield.";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: SITE_NAME },
  { name: "description", content: DESCRIPTION },
  ...(loaderData ? [{ "script:ld+json": loaderData.structuredData }] : []),
];

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  return { ...(await homePage(services.db)), structuredData: siteStructuredData(services.env.BASE_URL, SITE_NAME, DESCRIPTION) };
}

const VALUES = [
  { title: "Mindfulness", text: "Meet each moment with full attention.", icon: Brain, tone: "text-monk" },
  { title: "Action", text: "Turn intention into deeds, every day.", icon: Swords, tone: "text-warrior" },
  { title: "Wisdom", text: "Learn from those who walked before.", icon: Mountain, tone: "text-monk" },
  { title: "Discipline", text: "Keep the promise you made yourself.", icon: Flame, tone: "text-warrior" },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { monastery, battlefield, featured, creations, questions } = loaderData;
  const member = useViewer() !== null;
  return (
    <>
      <section className="bg-gradient-to-br from-monk-soft via-white to-warrior-soft">
        <div className="mx-auto max-w-6xl px-4 py-20 text-center">
          <h1 className="font-serif text-4xl font-bold sm:text-6xl">
            <span className="text-monk-strong">Inner Peace.</span> <span className="text-warrior-strong">Outer Strength.</span>
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-stone-700">
            A digital sanctuary for self-discipline, resilience and purpose. Train your mind like a monk and your body like a warrior, together with people who
            walk both paths.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink to="/monastery" variant="monk" size="lg">
              Enter The Monastery
            </ButtonLink>
            <ButtonLink to="/battlefield" variant="warrior" size="lg">
              Join The Battlefield
            </ButtonLink>
          </div>
        </div>
      </section>

      <section aria-labelledby="values" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="values" className="sr-only">
          Our values
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {VALUES.map((v) => (
            <li key={v.title}>
              <Card className="h-full p-6 text-center">
                <v.icon aria-hidden="true" className={`mx-auto size-8 ${v.tone}`} />
                <h3 className="mt-3 text-lg font-semibold">{v.title}</h3>
                <p className="mt-2 text-sm text-muted">{v.text}</p>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <SectionTeaser section="monastery" topics={monastery} />
      <SectionTeaser section="battlefield" topics={battlefield} />

      {featured.length > 0 ? (
        <section aria-labelledby="featured-teaser" className="mx-auto max-w-6xl px-4 py-16">
          <SectionHeading id="featured-teaser">Featured Discussions</SectionHeading>
          <div className="grid gap-6 md:grid-cols-2">
            {featured.map((d) => (
              <DiscussionCard key={d.id} discussion={d} />
            ))}
          </div>
        </section>
      ) : null}

      <section aria-labelledby="path-teaser" className="bg-stone-100 py-16">
        <div className="mx-auto max-w-6xl px-4">
          <SectionHeading id="path-teaser">The Path of Growth</SectionHeading>
          <p className="max-w-2xl text-stone-700">
            Every contribution earns experience. Climb seven ranks and train six virtues through challenges, from Initiate to Master.
          </p>
          <div className="mt-8 grid gap-8 md:grid-cols-2">
            <div>
              <h3 className="mb-3 text-lg font-semibold">Ranks</h3>
              <ol className="flex flex-col gap-2">
                {RANKS.map((r) => (
                  <li key={r.id} className="flex items-center gap-3">
                    <RankBadge rank={r.id} />
                    <span className="text-sm text-stone-700">{r.description}</span>
                  </li>
                ))}
              </ol>
            </div>
            <div>
              <h3 className="mb-3 text-lg font-semibold">Virtues</h3>
              <ul className="flex flex-col gap-2">
                {VIRTUES.map((v) => (
                  <li key={v.id} className="flex items-center gap-3">
                    <VirtueBadge virtue={v.id} />
                    <span className="text-sm text-stone-700">{v.description}</span>
                  </li>
                ))}
              </ul>
            </div>
          </div>
          <Link to="/ranks" className="mt-6 inline-block text-sm font-semibold text-monk-strong underline">
            How ranks and virtues are earned
          </Link>
        </div>
      </section>

      <section aria-labelledby="forge-teaser" className="mx-auto max-w-6xl px-4 py-16">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <SectionHeading id="forge-teaser">From the Forge</SectionHeading>
          <Link to="/forge" className="mb-4 text-sm font-semibold text-monk-strong underline">
            All creations
          </Link>
        </div>
        <div className="grid items-start gap-6 md:grid-cols-3">
          {/* Far below the fold on every screen: lazy, so React does not preload the thumbnails in the
              head, where they would compete with the first paint (ADR 0029). */}
          {creations.map((c) => (
            <CreationCard key={c.id} creation={c} lazy />
          ))}
        </div>
      </section>

      <section aria-labelledby="council-teaser" className="bg-stone-100 py-16">
        <div className="mx-auto max-w-6xl px-4">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <SectionHeading id="council-teaser">From the Council</SectionHeading>
            <Link to="/council" className="mb-4 text-sm font-semibold text-monk-strong underline">
              All questions
            </Link>
          </div>
          <div className="grid gap-6 md:grid-cols-3">
            {questions.map((q) => (
              <QuestionCard key={q.id} question={q} />
            ))}
          </div>
        </div>
      </section>

      {/* Visitors get the seed's call to join; a member, who has joined, gets the next step. */}
      {member ? (
        <section aria-labelledby="cta" className="mx-auto max-w-4xl px-4 py-20 text-center">
          <h2 id="cta" className="font-serif text-3xl font-bold">
            Continue your journey
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-stone-700">Your dashboard shows your rank and how much XP the next one needs.</p>
          <ButtonLink to="/dashboard" variant="default" size="lg" className="mt-8">
            Go to Dashboard
          </ButtonLink>
        </section>
      ) : (
        <section aria-labelledby="cta" className="mx-auto max-w-4xl px-4 py-20 text-center">
          <h2 id="cta" className="font-serif text-3xl font-bold">
            Begin your journey today
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-stone-700">Join a community that trains the mind and the body, and grows stronger together.</p>
          <ButtonLink to="/join" variant="default" size="lg" className="mt-8">
            Join the Path
          </ButtonLink>
        </section>
      )}
    </>
  );
}

/** Each section's teaser: its name and colours, written out whole so that Tailwind finds the classes. */
const TEASERS = {
  monastery: { name: "Monastery", band: "bg-monk-soft/60", link: "text-monk-strong" },
  battlefield: { name: "Battlefield", band: "bg-warrior-soft/60", link: "text-warrior-strong" },
} as const;

/** "From the Monastery": three of a section's topics and the way to all of them. */
function SectionTeaser({ section, topics }: { section: keyof typeof TEASERS; topics: Route.ComponentProps["loaderData"]["monastery"] }) {
  const { name, band, link } = TEASERS[section];
  return (
    <section aria-labelledby={`${section}-teaser`} className={`${band} py-16`}>
      <div className="mx-auto max-w-6xl px-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <SectionHeading id={`${section}-teaser`}>From the {name}</SectionHeading>
          <Link to={`/${section}`} className={`mb-4 text-sm font-semibold ${link} underline`}>
            All {name} topics
          </Link>
        </div>
        <div className="grid gap-6 md:grid-cols-3">
          {topics.map((t) => (
            <TopicCard key={t.id} topic={t} />
          ))}
        </div>
      </div>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
