import { ExternalLink, Heart, MessageCircle } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/creation";
import { Byline } from "~/components/community/byline";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { creationWithComments } from "~/.server/domain/forge/forge-read-model";
import { CREATION_LABELS } from "~/features/forge/creation-types";
import { formatDate } from "~/lib/dates";
import { plural } from "~/lib/utils";
import { parseId } from "~/lib/params";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        { title: `${loaderData.creation.title} · The Forge` },
        { name: "description", content: loaderData.creation.description },
      ]
    : [{ title: "Creation not found" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.creationId);
  const shown = id ? await creationWithComments(context.get(servicesContext).db, id) : null;
  if (!shown) throw data("Not found", { status: 404 });
  return shown;
}

export default function Creation({ loaderData }: Route.ComponentProps) {
  const { creation, comments } = loaderData;
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <p className="text-sm">
        <Link to="/forge" className="font-semibold text-monk-strong underline">
          The Forge
        </Link>
      </p>
      <Badge className="mt-4">{CREATION_LABELS[creation.type]}</Badge>
      <h1 className="mt-3 font-serif text-4xl font-bold">{creation.title}</h1>
      <p className="mt-3 text-lg text-stone-700">{creation.description}</p>
      {/* The work in a card, as a discussion's opening post is: author, the piece, its reception. */}
      <Card className="mt-6 p-6 sm:p-8">
        <div>
          <Byline author={creation.author}>
            <span>
              {formatDate(creation.createdAt)}
              {creation.edited ? "\u00a0· edited" : ""}
            </span>
          </Byline>
        </div>
        <div className="prose-member mt-6" dangerouslySetInnerHTML={{ __html: creation.html }} />
        {creation.linkUrl ? (
          <p className="mt-6">
            <a
              href={creation.linkUrl}
              rel="nofollow ugc noopener noreferrer"
              className="inline-flex items-center gap-1 font-semibold text-monk-strong underline"
            >
              Visit the project <ExternalLink aria-hidden="true" className="size-4" />
            </a>
          </p>
        ) : null}
        <p className="mt-6 flex gap-6 border-t border-line pt-4 text-sm text-muted">
          <span className="inline-flex items-center gap-1">
            <Heart aria-hidden="true" className="size-4" /> {plural(creation.likes, "like")}
          </span>
          <span className="inline-flex items-center gap-1">
            <MessageCircle aria-hidden="true" className="size-4" /> {plural(creation.comments, "comment")}
          </span>
        </p>
      </Card>
      <section aria-labelledby="comments" className="mt-10">
        <h2 id="comments" className="mb-4 text-2xl font-bold">
          Comments
        </h2>
        {comments.length === 0 ? (
          <p className="text-muted">No comments yet.</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {comments.map((c) => (
              <li key={c.id}>
                <Card className="p-4">
                  <Byline author={c.author}>
                    <span>{formatDate(c.createdAt)}</span>
                  </Byline>
                  {c.html ? (
                    <div className="prose-member mt-2 text-sm" dangerouslySetInnerHTML={{ __html: c.html }} />
                  ) : (
                    <p className="mt-2 text-sm text-muted">[deleted]</p>
                  )}
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
