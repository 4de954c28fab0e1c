import { data, redirect } from "react-router";
import type { Route } from "./+types/reactions";
import { PageHeader } from "~/components/community/page-header";
import { FormAlert } from "~/components/ui/form-controls";
import { Link, ParentLink } from "~/components/ui/link";
import { servicesContext, viewerContext } from "~/.server/context";
import { postRefOf } from "~/.server/domain/posts/post-places";
import { reactionsPage } from "~/.server/domain/reactions/reaction-read-model";
import { setReaction } from "~/.server/domain/reactions/reaction-service";
import { readForm } from "~/.server/forms";
import { requireViewer, safeRedirectTarget } from "~/.server/session";
import { isReaction, REACTIONS } from "~/lib/reactions";
import { plural } from "~/lib/utils";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `Who reacted · ${loaderData.title}` : "Post not found" },
  { name: "robots", content: "noindex" },
];

/** The post this address names, or a 404 for a kind or id that cannot exist. */
function postOf(params: Route.LoaderArgs["params"]) {
  const post = postRefOf(params.kind, params.postId);
  if (!post) throw data("Not found", { status: 404 });
  return post;
}

/** `/reactions/<kind>/<id>`: who gave a post each reaction (issue 31). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const page = await reactionsPage(context.get(servicesContext).db, context.get(viewerContext), postOf(params));
  if (!page) throw data("Not found", { status: 404 });
  return page;
}

/**
 * A reaction given or taken back, from a post's reaction bar: `change` says which way and which
 * reaction (`add:thanks`), so a repeated post asks for the state it already has. Back to the post
 * after; a refusal (a limit, one's own post) is shown here with the way back.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const post = postOf(params);
  const viewer = requireViewer(context, request);
  const form = await readForm(request);
  const [way, reaction] = String(form.get("change") ?? "").split(":");
  if ((way !== "add" && way !== "remove") || !isReaction(reaction)) throw data("Unknown reaction", { status: 400 });
  const done = await setReaction(context.get(servicesContext), viewer, post, reaction, way === "add");
  if (!done.ok) {
    if (done.status === 404) throw data("Not found", { status: 404 });
    return data({ error: done.errors.form }, { status: done.status });
  }
  return redirect(safeRedirectTarget(form.get("redirectTo"), `/reactions/${post.kind}/${post.id}`), 303);
}

export default function Reactions({ loaderData, actionData }: Route.ComponentProps) {
  const { title, url, where, reactions } = loaderData;
  return (
    <>
      <PageHeader title="Who reacted" intro={`${where}: ${title}`}>
        <ParentLink to={url}>Back to the post</ParentLink>
      </PageHeader>
      <div className="mx-auto max-w-3xl px-4 py-8">
        {actionData?.error ? <FormAlert>{actionData.error}</FormAlert> : null}
        {reactions.length === 0 ? (
          <p className="text-stone-700">No reactions yet.</p>
        ) : (
          reactions.map((r) => (
            <section key={r.reaction} aria-labelledby={`reaction-${r.reaction}`} className="mb-8">
              <h2 id={`reaction-${r.reaction}`} className="mb-3 text-lg font-semibold">
                <span aria-hidden="true">{REACTIONS[r.reaction].emoji}</span> {REACTIONS[r.reaction].label} · {plural(r.count, "member")}
              </h2>
              <ul className="flex flex-wrap gap-x-4 gap-y-2">
                {r.members.map((m, i) => (
                  <li key={`${m.profile ?? "deleted"}-${i}`}>
                    {m.profile ? (
                      <Link to={m.profile} className="font-semibold text-monk-strong underline-offset-2 hover:underline">
                        {m.name}
                      </Link>
                    ) : (
                      <span className="text-muted">{m.name}</span>
                    )}
                  </li>
                ))}
              </ul>
              {r.more > 0 ? <p className="mt-2 text-sm text-muted">and {plural(r.more, "more member", "more members")}</p> : null}
            </section>
          ))
        )}
      </div>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
