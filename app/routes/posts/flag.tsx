import { data, Form } from "react-router";
import * as z from "zod/mini";
import type { Route } from "./+types/flag";
import { PageHeader } from "~/components/community/page-header";
import { Button } from "~/components/ui/button";
import { FieldError, FormAlert, Label, Textarea } from "~/components/ui/form-controls";
import { ParentLink } from "~/components/ui/link";
import { servicesContext } from "~/.server/context";
import { flagPost } from "~/.server/domain/flags/flag-service";
import { postRefOf } from "~/.server/domain/posts/post-places";
import { flagFormPage } from "~/.server/domain/flags/review-read-model";
import { readForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { FLAG_NOTE_MAX, FLAG_REASON_NAMES, FLAG_REASONS, isFlagReason } from "~/lib/flags";
import { flagSchema } from "~/schemas/flag";

export const meta: Route.MetaFunction = () => [{ title: "Flag a Post · Inner Peace. Outer Strength." }, { name: "robots", content: "noindex" }];

/** The post this address names, or a 404 for a kind or id that cannot exist. */
function postOf(params: Route.LoaderArgs["params"]) {
  const post = postRefOf(params.kind, params.postId);
  if (!post) throw data("Not found", { status: 404 });
  return post;
}

/** `/flags/<kind>/<id>`: why the member flags this post (issue 31), for the moderators to review. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const page = await flagFormPage(context.get(servicesContext).db, viewer, postOf(params));
  if (!page) throw data("Not found", { status: 404 });
  return page;
}

type ActionResult =
  { flagged: true; hidden: boolean } | { flagged: false; errors: Record<string, string | undefined>; values: { reason: string; note: string } };

export async function action({ request, params, context }: Route.ActionArgs) {
  const post = postOf(params);
  const viewer = requireViewer(context, request);
  const form = await readForm(request);
  const values = { reason: String(form.get("reason") ?? ""), note: String(form.get("note") ?? "") };
  const parsed = z.safeParse(flagSchema, values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return data<ActionResult>({ flagged: false, errors: { [String(issue.path[0] ?? "form")]: issue.message }, values }, { status: 400 });
  }
  const reason = parsed.data.reason;
  if (!isFlagReason(reason)) throw data("Unknown reason", { status: 400 });
  const done = await flagPost(context.get(servicesContext), viewer, post, { reason, note: parsed.data.note });
  if (!done.ok) {
    if (done.status === 404) throw data("Not found", { status: 404 });
    return data<ActionResult>({ flagged: false, errors: done.errors, values }, { status: done.status });
  }
  return { flagged: true, hidden: done.value.hidden } satisfies ActionResult;
}

export default function Flag({ loaderData, actionData }: Route.ComponentProps) {
  const { title, url, where } = loaderData;
  const failed = actionData && !actionData.flagged ? actionData : null;
  return (
    <>
      <PageHeader title="Flag a Post" intro={`${where}: ${title}`}>
        <ParentLink to={url}>Back to the post</ParentLink>
      </PageHeader>
      <div className="mx-auto max-w-2xl px-4 py-8">
        {actionData?.flagged ? (
          <p role="status" className="rounded-md bg-monk-soft p-4 text-monk-strong">
            Thank you. The moderators will review this post.
            {actionData.hidden ? " It is hidden while the community reviews it." : ""}
          </p>
        ) : (
          <Form method="post" className="flex flex-col gap-5">
            <FormAlert>{failed?.errors.form}</FormAlert>
            <fieldset className="flex flex-col gap-3" aria-describedby={failed?.errors.reason ? "reason-error" : undefined}>
              <legend className="mb-2 font-semibold">Why are you flagging this post?</legend>
              {FLAG_REASON_NAMES.map((reason) => (
                <div key={reason} className="flex items-start gap-3">
                  <input
                    id={`reason-${reason}`}
                    type="radio"
                    name="reason"
                    value={reason}
                    required
                    defaultChecked={failed?.values.reason === reason}
                    aria-describedby={`reason-${reason}-hint`}
                    className="mt-1 size-4"
                  />
                  <div>
                    <Label htmlFor={`reason-${reason}`}>{FLAG_REASONS[reason].label}</Label>
                    <p id={`reason-${reason}-hint`} className="text-sm text-muted">
                      {FLAG_REASONS[reason].hint}
                    </p>
                  </div>
                </div>
              ))}
              <FieldError id="reason-error">{failed?.errors.reason}</FieldError>
            </fieldset>
            <div className="flex flex-col gap-2">
              <Label htmlFor="flag-note">Note for the moderators (optional)</Label>
              <Textarea
                id="flag-note"
                name="note"
                maxLength={FLAG_NOTE_MAX}
                defaultValue={failed?.values.note}
                aria-invalid={failed?.errors.note ? true : undefined}
                aria-describedby={failed?.errors.note ? "flag-note-error" : undefined}
              />
              <FieldError id="flag-note-error">{failed?.errors.note}</FieldError>
            </div>
            <div>
              <Button type="submit" variant="warrior">
                Flag Post
              </Button>
            </div>
          </Form>
        )}
      </div>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
