import { HelpCircle, ListFilter, MessageSquareDashed } from "lucide-react";
import type { Route } from "./+types/council";
import { PageHeader, SectionHeading } from "~/components/community/page-header";
import { ButtonLink } from "~/components/ui/button";
import { servicesContext } from "~/.server/context";
import { featuredAdvisorSummaries, questionSummaries } from "~/.server/domain/council/council-pages";
import { AdvisorCard } from "~/features/council/advisor-card";
import { QuestionCard } from "~/features/council/question-card";

export const meta: Route.MetaFunction = () => [
  { title: "The Council · Inner Peace. Outer Strength." },
  {
    name: "description",
    content: "Ask experienced monks and warriors, verified community leaders, and learn from their answers.",
  },
];

export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const [advisors, questions] = await Promise.all([featuredAdvisorSummaries(db, 3), questionSummaries(db, 5)]);
  return { advisors, questions };
}

export default function Council({ loaderData }: Route.ComponentProps) {
  const { advisors, questions } = loaderData;
  return (
    <>
      <PageHeader
        title="The Council"
        intro="Seekers ask; experienced monks and warriors, verified community leaders, answer."
      >
        <ButtonLink to="/council/ask" variant="monk">
          <HelpCircle aria-hidden="true" />
          Ask a Question
        </ButtonLink>
        <ButtonLink to="/council#questions" variant="outline">
          <ListFilter aria-hidden="true" />
          Browse by Topic
        </ButtonLink>
        <ButtonLink to="/council#questions" variant="outline">
          <MessageSquareDashed aria-hidden="true" />
          View Unanswered
        </ButtonLink>
      </PageHeader>
      <section aria-labelledby="advisors" className="mx-auto max-w-6xl px-4 pt-12">
        <SectionHeading id="advisors">Featured Advisors</SectionHeading>
        <div className="grid gap-6 md:grid-cols-3">
          {advisors.map((a) => (
            <AdvisorCard key={a.handle} advisor={a} />
          ))}
        </div>
      </section>
      <section aria-labelledby="questions" className="mx-auto max-w-6xl px-4 py-12">
        <SectionHeading id="questions">Recent Questions</SectionHeading>
        <div className="grid gap-6 md:grid-cols-2">
          {questions.map((q) => (
            <QuestionCard key={q.id} question={q} />
          ))}
        </div>
      </section>
    </>
  );
}
