import { CheckCircle2, Eye, ShieldCheck, ThumbsUp } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/question";
import { VirtueBadge } from "~/components/community/badges";
import { Byline } from "~/components/community/byline";
import { Card } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { questionPage } from "~/.server/domain/council/council-pages";
import { formatDate } from "~/lib/dates";
import { parseId } from "~/lib/params";
import { cn, plural } from "~/lib/utils";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        { title: `${loaderData.question.title} · The Council` },
        { name: "description", content: loaderData.question.excerpt },
      ]
    : [{ title: "Question not found" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.questionId);
  const page = id ? await questionPage(context.get(servicesContext).db, id) : null;
  if (!page) throw data("Not found", { status: 404 });
  return page;
}

export default function Question({ loaderData }: Route.ComponentProps) {
  const { question, answers } = loaderData;
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <p className="text-sm">
        <Link to="/council" className="font-semibold text-monk-strong underline">
          The Council
        </Link>
      </p>
      <h1 className="mt-4 font-serif text-3xl font-bold">{question.title}</h1>
      <div className="mt-3 flex flex-wrap gap-2">
        {question.virtues.map((v) => (
          <VirtueBadge key={v} virtue={v} />
        ))}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Byline author={question.author}>
          <span>
            · asked {formatDate(question.createdAt)}
            {question.edited ? " · edited" : ""}
          </span>
        </Byline>
        <span className="inline-flex items-center gap-1 text-sm text-muted">
          <Eye aria-hidden="true" className="size-4" /> {plural(question.views, "view")}
        </span>
      </div>
      <div className="prose-member mt-6" dangerouslySetInnerHTML={{ __html: question.html }} />

      <section aria-labelledby="answers" className="mt-10">
        <h2 id="answers" className="mb-4 text-2xl font-bold">
          {plural(question.answers, "Answer")}
        </h2>
        {answers.length === 0 ? (
          <p className="text-muted">No answers yet.</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {answers.map((a) => (
              <li key={a.id}>
                <Card className={cn("p-5", a.accepted && "border-2 border-green-700")}>
                  {a.accepted ? (
                    <p className="mb-2 inline-flex items-center gap-1 text-sm font-semibold text-green-800">
                      <CheckCircle2 aria-hidden="true" className="size-4" /> Accepted answer
                    </p>
                  ) : null}
                  <Byline author={a.author}>
                    <span>· {formatDate(a.createdAt)}</span>
                  </Byline>
                  {a.advisor ? (
                    <p className="mt-2 inline-flex items-center gap-1 text-sm font-semibold text-stone-800">
                      <ShieldCheck aria-hidden="true" className={cn("size-4", a.advisor.path === "monk" ? "text-monk" : "text-warrior")} />
                      Verified advisor · {a.advisor.path === "monk" ? "Monk" : "Warrior"} · {a.advisor.specialty}
                    </p>
                  ) : null}
                  {a.html ? (
                    <div className="prose-member mt-3" dangerouslySetInnerHTML={{ __html: a.html }} />
                  ) : (
                    <p className="mt-3 text-muted">[deleted]</p>
                  )}
                  <p className="mt-3 inline-flex items-center gap-1 text-sm text-muted">
                    <ThumbsUp aria-hidden="true" className="size-4" /> {plural(a.helpful, "helpful vote")}
                  </p>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
