import { HelpCircle } from "~/components/ui/icons/help-circle";
import { ListFilter } from "~/components/ui/icons/list-filter";
import { MessageSquareDashed } from "~/components/ui/icons/message-square-dashed";
import { data } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/council";
import { PageHeader, SectionHeading } from "~/components/community/page-header";
import { ButtonLink } from "~/components/ui/button";
import { servicesContext, viewerContext } from "~/.server/context";
import { featuredAdvisorSummaries, questionFeed } from "~/.server/domain/council/council-read-model";
import { decodeActivityCursor, pageRequest } from "~/.server/pagination";
import { Pager } from "~/components/community/pager";
import { AdvisorCard } from "~/features/council/advisor-card";
import { QuestionCard } from "~/features/council/question-card";
import { cn } from "~/lib/utils";
import { isVirtue, VIRTUES, virtueById } from "~/lib/virtues";

export const meta: Route.MetaFunction = () => [
  { title: "The Council · Inner Peace. Outer Strength." },
  {
    name: "description",
    content: "Ask experienced monks and warriors, verified community leaders, and learn from their answers.",
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const requested = params.get("virtue");
  // Unknown values are ignored: these are filters, not resources.
  const virtue = requested && isVirtue(requested) ? requested : null;
  const unanswered = params.get("view") === "unanswered";
  const pageAsked = pageRequest(params, decodeActivityCursor);
  if (!pageAsked.ok) throw data(pageAsked.errors.form, { status: pageAsked.status });
  const [advisors, feed] = await Promise.all([
    featuredAdvisorSummaries(db, 3),
    questionFeed(db, { virtue: virtue ?? undefined, unanswered }, pageAsked.value, 5, context.get(viewerContext)),
  ]);
  // Page links keep the filter.
  const filter = [virtue ? `virtue=${virtue}` : null, unanswered ? "view=unanswered" : null].filter(Boolean);
  const href = (cursor: string | null) => (cursor ? `/council?${[...filter, cursor].join("&")}#questions` : null);
  return { advisors, questions: feed.questions, newer: href(feed.newer), older: href(feed.older), virtue, unanswered };
}

function listTitle(virtue: string | null, unanswered: boolean) {
  const label = virtue ? virtueById(virtue)?.label : null;
  if (unanswered && label) return `Unanswered Questions on ${label}`;
  if (unanswered) return "Unanswered Questions";
  if (label) return `Questions on ${label}`;
  return "Recent Questions";
}

export default function Council({ loaderData }: Route.ComponentProps) {
  const { advisors, questions, newer, older, virtue, unanswered } = loaderData;
  return (
    <>
      <PageHeader title="The Council" intro="Seekers ask; experienced monks and warriors, verified community leaders, answer.">
        <ButtonLink to="/council/ask" variant="monk">
          <HelpCircle aria-hidden="true" />
          Ask a Question
        </ButtonLink>
        <ButtonLink to="/council#browse" variant="outline">
          <ListFilter aria-hidden="true" />
          Browse by Topic
        </ButtonLink>
        <ButtonLink to="/council?view=unanswered#questions" variant="outline">
          <MessageSquareDashed aria-hidden="true" />
          View Unanswered
        </ButtonLink>
      </PageHeader>
      <section aria-labelledby="advisors" className="mx-auto max-w-6xl px-4 pt-12">
        <SectionHeading id="advisors">Featured Advisors</SectionHeading>
        <p className="-mt-2 mb-6 max-w-3xl text-sm text-muted">
          Each advisor is verified to guide seekers on one path, monk or warrior. Their rank is separate: every member climbs the same ladder of ranks by XP
          (see the{" "}
          <Link to="/ranks" className="font-semibold text-monk-strong underline">
            Rank System
          </Link>
          ).
        </p>
        <div className="grid gap-6 md:grid-cols-3">
          {advisors.map((a) => (
            <AdvisorCard key={a.handle} advisor={a} />
          ))}
        </div>
      </section>
      <nav id="browse" aria-label="Browse by topic" aria-describedby="browse-note" className="mx-auto max-w-6xl px-4 pt-12">
        <h2 className="text-lg font-semibold">Browse by Topic</h2>
        {/* The seed's button says "topic"; the Council's topics are the virtues a question is tagged with. */}
        <p id="browse-note" className="mt-1 mb-3 text-sm text-muted">
          Topics are the six virtues: choose one to see only the questions tagged with it.
        </p>
        <ul className="flex flex-wrap gap-2">
          <li>
            <Link
              to={unanswered ? "/council?view=unanswered#questions" : "/council#questions"}
              aria-current={virtue === null ? "true" : undefined}
              className={cn(
                "inline-flex rounded-full border px-3 py-1 text-sm font-medium",
                virtue === null ? "border-ink bg-ink text-white" : "border-stone-300 bg-white hover:bg-stone-100",
              )}
            >
              All virtues
            </Link>
          </li>
          {VIRTUES.map((v) => (
            <li key={v.id}>
              <Link
                to={`/council?virtue=${v.id}${unanswered ? "&view=unanswered" : ""}#questions`}
                aria-current={virtue === v.id ? "true" : undefined}
                className={cn(
                  "inline-flex rounded-full border px-3 py-1 text-sm font-medium",
                  virtue === v.id
                    ? v.path === "monk"
                      ? "border-monk bg-monk text-white"
                      : "border-warrior bg-warrior text-white"
                    : v.path === "monk"
                      ? "border-monk/40 bg-monk-soft text-monk-strong hover:border-monk"
                      : "border-warrior/40 bg-warrior-soft text-warrior-strong hover:border-warrior",
                )}
              >
                {v.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="questions" className="mx-auto max-w-6xl px-4 py-12">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <SectionHeading id="questions">{listTitle(virtue, unanswered)}</SectionHeading>
          {virtue || unanswered ? (
            <Link to="/council#questions" className="text-sm font-semibold text-monk-strong underline">
              Show all questions
            </Link>
          ) : null}
        </div>
        {questions.length === 0 ? (
          <p className="text-muted">No questions here yet.</p>
        ) : (
          <div className="grid gap-6 md:grid-cols-2">
            {questions.map((q) => (
              <QuestionCard key={q.id} question={q} />
            ))}
          </div>
        )}
        <Pager
          label="Question pages"
          links={{ first: null, previous: newer, next: older, last: null }}
          names={["", "Newer questions", "Older questions", ""]}
        />
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
