import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/review";
import { PageHeader } from "~/components/community/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-controls";
import { Link } from "~/components/ui/link";
import { servicesContext, type Viewer } from "~/.server/context";
import { isModerator } from "~/.server/domain/accounts/roles";
import { decideReview } from "~/.server/domain/flags/flag-service";
import { reviewQueue } from "~/.server/domain/flags/review-read-model";
import { postKey, postRefOf } from "~/.server/domain/posts/post-places";
import { readForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { formatDate } from "~/lib/dates";
import { plural } from "~/lib/utils";

export const meta: Route.MetaFunction = () => [{ title: "Review · Inner Peace. Outer Strength." }, { name: "robots", content: "noindex" }];

function requireModerator(viewer: Viewer) {
  if (!isModerator(viewer)) throw data("Only moderators can review flagged posts.", { status: 403 });
  return viewer;
}

/** `/review`: flagged and hidden posts waiting for a moderator, oldest first (issue 31). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireModerator(requireViewer(context, request));
  return reviewQueue(context.get(servicesContext).db);
}

const DECISIONS = { agree: "Agree", disagree: "Disagree", ignore: "Ignore" } as const;

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireModerator(requireViewer(context, request));
  const form = await readForm(request);
  const post = postRefOf(form.get("kind"), form.get("id"));
  const decision = String(form.get("decision") ?? "");
  if (!post) throw data("Unknown post", { status: 400 });
  if (decision !== "agree" && decision !== "disagree" && decision !== "ignore") throw data("Unknown decision", { status: 400 });
  const silenceDays = Number(form.get("silenceDays") ?? 0);
  const done = await decideReview(context.get(servicesContext), viewer, post, decision, { silenceDays });
  if (!done.ok) return data({ error: done.errors.form, key: postKey(post) }, { status: done.status });
  return redirect("/review", 303);
}

export default function Review({ loaderData, actionData }: Route.ComponentProps) {
  const { items, waiting } = loaderData;
  return (
    <>
      <PageHeader title="Review" intro={waiting === 0 ? "Nothing is waiting for review." : `${plural(waiting, "post")} waiting, oldest first.`} />
      <div className="mx-auto max-w-4xl px-4 py-8">
        {actionData?.error ? <FormAlert>{actionData.error}</FormAlert> : null}
        <ol className="flex flex-col gap-6">
          {items.map((item) => (
            <li key={item.key} id={`review-${item.kind}-${item.id}`}>
              <Card className="p-5">
                <article aria-labelledby={`review-${item.kind}-${item.id}-title`}>
                  <h2 id={`review-${item.kind}-${item.id}-title`} className="text-lg font-semibold">
                    {item.kindLabel} in{" "}
                    {item.url && !item.deleted ? (
                      <Link to={item.url} className="text-monk-strong underline">
                        {item.title}
                      </Link>
                    ) : (
                      item.title
                    )}
                  </h2>
                  <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted">
                    <span>{item.where}</span>
                    <span>· flagged {formatDate(item.openedAt)}</span>
                    {item.approval ? (
                      <Badge tone="warrior">Waiting for approval</Badge>
                    ) : item.hiddenByFlags ? (
                      <Badge tone="warrior">Hidden by flags</Badge>
                    ) : item.hidden ? (
                      <Badge tone="warrior">Hidden</Badge>
                    ) : null}
                    {item.deleted ? <Badge>Deleted</Badge> : null}
                  </p>
                  <blockquote className="mt-3 border-l-4 border-line pl-3 text-stone-800">{item.excerpt || "(no text)"}</blockquote>
                  {item.author ? (
                    <p className="mt-3 text-sm">
                      By{" "}
                      {item.author.profile ? (
                        <Link to={item.author.profile} className="font-semibold underline">
                          {item.author.name}
                        </Link>
                      ) : (
                        item.author.name
                      )}{" "}
                      · {item.author.rank} · member since {formatDate(item.author.since)} · {plural(item.author.agreedAgainst, "post")} hidden after review
                      before, {plural(item.author.cleared, "flagged post")} cleared
                    </p>
                  ) : null}
                  {item.approval ? (
                    <p className="mt-4 text-sm">
                      A new member&rsquo;s first post that looks like spam (many links, one site in every post, or text posted again).
                    </p>
                  ) : (
                    <>
                      <h3 className="mt-4 text-sm font-semibold">{plural(item.flags.length, "flag")}</h3>
                      <ul className="mt-1 flex flex-col gap-1 text-sm">
                        {item.flags.map((f, i) => (
                          <li key={`${f.at}-${i}`}>
                            <span className="font-semibold">{f.reason}</span> by {f.by}
                            {f.note ? <span>: “{f.note}”</span> : null}
                          </li>
                        ))}
                      </ul>
                    </>
                  )}
                  <Form method="post" className="mt-4 flex flex-wrap gap-2">
                    <input type="hidden" name="kind" value={item.kind} />
                    <input type="hidden" name="id" value={item.id} />
                    {item.approval ? (
                      <>
                        <Button type="submit" name="decision" value="disagree" variant="outline" size="sm">
                          Approve
                        </Button>
                        <Button type="submit" name="decision" value="agree" variant="warrior" size="sm">
                          Reject
                        </Button>
                      </>
                    ) : (
                      <>
                        {(Object.keys(DECISIONS) as Array<keyof typeof DECISIONS>).map((d) => (
                          <Button key={d} type="submit" name="decision" value={d} variant={d === "agree" ? "warrior" : "outline"} size="sm">
                            {DECISIONS[d]}
                          </Button>
                        ))}
                        <span className="flex items-center gap-2 text-sm">
                          <label htmlFor={`silence-${item.kind}-${item.id}`}>With Agree, silence the author</label>
                          <select
                            id={`silence-${item.kind}-${item.id}`}
                            name="silenceDays"
                            defaultValue="0"
                            className="h-9 rounded-md border border-stone-300 bg-white px-2 text-sm"
                          >
                            <option value="0">not at all</option>
                            <option value="1">for 1 day</option>
                            <option value="7">for 7 days</option>
                            <option value="30">for 30 days</option>
                          </select>
                        </span>
                      </>
                    )}
                  </Form>
                </article>
              </Card>
            </li>
          ))}
        </ol>
      </div>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
