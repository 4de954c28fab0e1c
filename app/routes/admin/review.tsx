import { useEffect } from "react";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/review";
import { PageHeader } from "~/components/community/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Checkbox, FormAlert, Textarea } from "~/components/ui/form-controls";
import { Link } from "~/components/ui/link";
import { servicesContext, type Viewer } from "~/.server/context";
import { isModerator } from "~/.server/domain/accounts/roles";
import { decideReview } from "~/.server/domain/flags/flag-service";
import { reviewQueue } from "~/.server/domain/flags/review-read-model";
import { postKey, postRefOf } from "~/.server/domain/posts/post-places";
import { readForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { formatDate } from "~/lib/dates";
import { REVIEW_WARNING_MAX } from "~/lib/flags";
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

const DECISIONS = [
  { decision: "agree", label: "Agree", shortcut: "a" },
  { decision: "disagree", label: "Disagree", shortcut: "d" },
  { decision: "ignore", label: "Ignore", shortcut: "i" },
] as const;

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireModerator(requireViewer(context, request));
  const form = await readForm(request);
  const post = postRefOf(form.get("kind"), form.get("id"));
  const decision = String(form.get("decision") ?? "");
  if (!post) throw data("Unknown post", { status: 400 });
  if (decision !== "agree" && decision !== "disagree" && decision !== "ignore") throw data("Unknown decision", { status: 400 });
  const silenceDays = Number(form.get("silenceDays") ?? 0);
  const warning = String(form.get("warning") ?? "");
  const remove = form.get("remove") === "on";
  const done = await decideReview(context.get(servicesContext), viewer, post, decision, { silenceDays, warning, remove });
  if (!done.ok) return data({ error: done.errors.form ?? Object.values(done.errors)[0], key: postKey(post) }, { status: done.status });
  return redirect("/review", 303);
}

/**
 * One key decides the post in focus (or the first one): the buttons carry their key in
 * `data-key`, and J and K move between posts. Keys typed into a field are the field's.
 */
function useReviewKeys() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable]")) return;
      const key = event.key.toLowerCase();
      const items = [...document.querySelectorAll<HTMLElement>("[data-review-item]")];
      if (items.length === 0) return;
      const at = items.findIndex((item) => item.contains(document.activeElement));
      if (key === "j" || key === "k") {
        const next = items[Math.min(items.length - 1, Math.max(0, at + (key === "j" ? 1 : -1)))];
        next?.querySelector<HTMLElement>("[data-review-heading]")?.focus();
        event.preventDefault();
        return;
      }
      const button = items[Math.max(at, 0)]?.querySelector<HTMLButtonElement>(`button[data-key="${CSS.escape(key)}"]`);
      if (!button) return;
      event.preventDefault();
      button.click();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}

/** A decision's button, with its one key shown and announced. */
function DecisionButton({ decision, label, shortcut, strong }: { decision: string; label: string; shortcut: string; strong?: boolean }) {
  return (
    <Button
      type="submit"
      name="decision"
      value={decision}
      variant={strong ? "warrior" : "outline"}
      size="sm"
      data-key={shortcut}
      aria-keyshortcuts={shortcut.toUpperCase()}
    >
      {label}
      <kbd className="ml-1.5 rounded border border-current/30 px-1 font-mono text-xs" aria-hidden="true">
        {shortcut.toUpperCase()}
      </kbd>
    </Button>
  );
}

export default function Review({ loaderData, actionData }: Route.ComponentProps) {
  const { items, waiting } = loaderData;
  useReviewKeys();
  return (
    <>
      <PageHeader title="Review" intro={waiting === 0 ? "Nothing is waiting for review." : `${plural(waiting, "post")} waiting, oldest first.`} />
      <div className="mx-auto max-w-4xl px-4 py-8">
        {actionData?.error ? <FormAlert>{actionData.error}</FormAlert> : null}
        {items.length > 0 ? (
          <p className="mb-4 text-sm text-muted">
            Keys: <kbd className="font-mono">A</kbd> agree, <kbd className="font-mono">D</kbd> disagree, <kbd className="font-mono">I</kbd> ignore (
            <kbd className="font-mono">P</kbd> approve, <kbd className="font-mono">R</kbd> reject a first post) for the post in focus or the first one;{" "}
            <kbd className="font-mono">J</kbd> and <kbd className="font-mono">K</kbd> move to the next and previous post.
          </p>
        ) : null}
        <ol className="flex flex-col gap-6">
          {items.map((item) => (
            <li key={item.key} id={`review-${item.kind}-${item.id}`} data-review-item="">
              <Card className="p-5">
                <article aria-labelledby={`review-${item.kind}-${item.id}-title`}>
                  <h2
                    id={`review-${item.kind}-${item.id}-title`}
                    tabIndex={-1}
                    data-review-heading=""
                    className="text-lg font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-monk"
                  >
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
                  <Form method="post" className="mt-4 flex flex-col gap-3">
                    <input type="hidden" name="kind" value={item.kind} />
                    <input type="hidden" name="id" value={item.id} />
                    <div className="flex flex-wrap items-center gap-2">
                      {item.approval ? (
                        <>
                          <DecisionButton decision="disagree" label="Approve" shortcut="p" />
                          <DecisionButton decision="agree" label="Reject" shortcut="r" strong />
                        </>
                      ) : (
                        DECISIONS.map((d) => <DecisionButton key={d.decision} {...d} strong={d.decision === "agree"} />)
                      )}
                    </div>
                    {/* What agreeing (or rejecting) may also do; the other decisions take none of it. */}
                    <fieldset className="flex flex-col gap-2 rounded-md border border-line p-3 text-sm">
                      <legend className="px-1 font-semibold">With {item.approval ? "Reject" : "Agree"}, also</legend>
                      <label className="flex items-center gap-2">
                        <Checkbox name="remove" />
                        Delete the post
                      </label>
                      <span className="flex flex-wrap items-center gap-2">
                        <label htmlFor={`silence-${item.kind}-${item.id}`}>Silence the author</label>
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
                      <label htmlFor={`warning-${item.kind}-${item.id}`}>Warn the author (optional; they read these words)</label>
                      <Textarea id={`warning-${item.kind}-${item.id}`} name="warning" maxLength={REVIEW_WARNING_MAX} className="min-h-16" />
                    </fieldset>
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
