import { data } from "react-router";
import type { Route } from "./+types/history";
import { PageHeader } from "~/components/community/page-header";
import { ParentLink } from "~/components/ui/link";
import { servicesContext, viewerContext } from "~/.server/context";
import { postHistory } from "~/.server/domain/posts/history-read-model";
import { postRefOf } from "~/.server/domain/posts/post-places";
import { formatDateTimeUtc } from "~/lib/dates";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `Edit History · ${loaderData.title}` : "Post not found" },
  { name: "robots", content: "noindex" },
];

/** `/history/<kind>/<id>`: a post's kept edits with the words each removed and added (issue 32). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const post = postRefOf(params.kind, params.postId);
  if (!post) throw data("Not found", { status: 404 });
  const history = await postHistory(context.get(servicesContext).db, context.get(viewerContext), post);
  if (!history) throw data("Not found", { status: 404 });
  return history;
}

export default function History({ loaderData }: Route.ComponentProps) {
  const { title, url, where, postedAt, editedAt, edits } = loaderData;
  return (
    <>
      <PageHeader title="Edit History" intro={`${where}: ${title}`}>
        <ParentLink to={url}>Back to the post</ParentLink>
      </PageHeader>
      <div className="mx-auto max-w-3xl px-4 py-8">
        {edits.length === 0 ? (
          <p className="text-stone-700">
            {editedAt
              ? "No earlier version is kept: this post was edited only in the first five minutes after it was posted."
              : "This post has not been edited."}
          </p>
        ) : (
          <>
            <p className="mb-6 text-sm text-muted">
              Newest first. In each edit, removed words are <del className="diff-del">struck through</del> and added words are{" "}
              <ins className="diff-ins">underlined</ins>.
            </p>
            <ol className="flex flex-col gap-8">
              {edits.map((e) => (
                <li key={e.id}>
                  <section aria-labelledby={`edit-${e.id}`}>
                    <h2 id={`edit-${e.id}`} className="mb-2 text-lg font-semibold">
                      Edited <time dateTime={e.at}>{formatDateTimeUtc(e.at)}</time>
                    </h2>
                    {/* Escaped member text in <del> and <ins> only, made by the server when the edit was written. */}
                    <div className="diff rounded-md border border-line bg-white p-4" dangerouslySetInnerHTML={{ __html: e.diffHtml }} />
                  </section>
                </li>
              ))}
            </ol>
          </>
        )}
        <p className="mt-8 text-sm text-muted">
          Posted <time dateTime={postedAt}>{formatDateTimeUtc(postedAt)}</time>
        </p>
      </div>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
