import { data, Form, redirect, useNavigation } from "react-router";
import { ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/proposals";
import { VirtueBadge } from "~/components/community/badges";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-controls";
import { servicesContext } from "~/.server/context";
import { proposedChallenges } from "~/.server/domain/challenges/challenge-read-model";
import { CHALLENGE_MESSAGES, mayPublish, reviewProposal } from "~/.server/domain/challenges/challenge-service";
import { parseForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { ChallengeFacts } from "~/features/challenges/challenge-card";
import { parseId } from "~/lib/params";
import { reviewSchema } from "~/schemas/challenges";
import { PATH_LABEL } from "~/lib/paths";

export const meta: Route.MetaFunction = () => [{ title: "Proposed challenges · Challenges" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const { db } = context.get(servicesContext);
  if (!(await mayPublish(db, viewer))) throw data(CHALLENGE_MESSAGES.reviewOnly, { status: 403 });
  return { proposals: await proposedChallenges(db) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const parsed = await parseForm(request, reviewSchema);
  if (!parsed.ok) return data({ errors: parsed.errors }, { status: 400 });
  const id = parseId(parsed.formData.get("challengeId"));
  if (!id) return data({ errors: { form: "Unknown challenge" } }, { status: 400 });
  const result = await reviewProposal(context.get(servicesContext), viewer, id, parsed.values.decision);
  if (!result.ok) return data({ errors: result.errors }, { status: result.status });
  return redirect(parsed.values.decision === "publish" ? `/challenges/${id}` : "/challenges/proposals");
}

export default function Proposals({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <ParentLink to="/challenges">Challenges</ParentLink>
      <h1 className="mt-2 mb-8 font-serif text-4xl font-bold">Proposed Challenges</h1>
      <FormAlert>{actionData?.errors ? Object.values(actionData.errors)[0] : null}</FormAlert>
      {loaderData.proposals.length === 0 ? (
        <p className="text-muted">No proposals are waiting.</p>
      ) : (
        <ul className="flex flex-col gap-6">
          {loaderData.proposals.map((c) => (
            <li key={c.id}>
              <Card className="flex flex-col gap-4 p-6">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={c.path}>{PATH_LABEL[c.path]}</Badge>
                  {c.virtues.map((v) => (
                    <VirtueBadge key={v} virtue={v} />
                  ))}
                </div>
                <h2 className="text-lg font-semibold">{c.title}</h2>
                <p className="text-sm text-muted">{c.description}</p>
                <ChallengeFacts challenge={c} />
                <Form method="post" className="flex gap-3">
                  <input type="hidden" name="challengeId" value={c.id} />
                  <Button type="submit" name="decision" value="publish" variant="monk" disabled={busy}>
                    Publish
                  </Button>
                  <Button type="submit" name="decision" value="decline" variant="outline" disabled={busy}>
                    Decline
                  </Button>
                </Form>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
