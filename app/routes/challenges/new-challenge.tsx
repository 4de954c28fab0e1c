import { data, Form, redirect, useNavigation } from "react-router";
import { MarkdownField } from "~/components/community/markdown-field";
import { ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/new-challenge";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox, FieldError, FormAlert, Label, TextField } from "~/components/ui/form-controls";
import { servicesContext } from "~/.server/context";
import { createChallenge, mayPublish, proposeRankMessage } from "~/.server/domain/challenges/challenge-service";
import { memberRank } from "~/.server/domain/progression/progression-service";
import { formKey, parseForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { CHALLENGE_RANK } from "~/lib/privileges";
import { isRankAtLeast } from "~/lib/ranks";
import { VIRTUES, type Virtue } from "~/lib/virtues";
import { challengeSchema } from "~/schemas/challenges";
import { CHALLENGE_DESCRIPTION_MAX, CHALLENGE_LENGTH_MAX, CHALLENGE_LISTS, CHALLENGE_NUMBER_MIN, CHALLENGE_TITLE_MAX } from "~/schemas/fields";
import { PATH_NAME, PATHS } from "~/lib/paths";

export const meta: Route.MetaFunction = () => [{ title: "New challenge · Challenges" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const { db } = context.get(servicesContext);
  const [publishes, rank] = await Promise.all([mayPublish(db, viewer), memberRank(db, viewer.id)]);
  return {
    publishes,
    allowed: publishes || isRankAtLeast(rank.id, CHALLENGE_RANK),
    refusal: proposeRankMessage(),
    submissionKey: formKey(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const parsed = await parseForm(request, challengeSchema, [], CHALLENGE_LISTS);
  if (!parsed.ok) return data({ errors: parsed.errors }, { status: 400 });
  const v = parsed.values;
  const result = await createChallenge(context.get(servicesContext), viewer, {
    ...v,
    virtues: v.virtues as Virtue[],
    lengthDays: Number(v.lengthDays),
    checkInsRequired: Number(v.checkInsRequired),
  });
  if (!result.ok) return data({ errors: result.errors }, { status: result.status });
  return redirect(result.value.status === "published" ? `/challenges/${result.value.id}` : "/challenges?proposed=1");
}

export default function NewChallenge({ loaderData, actionData }: Route.ComponentProps) {
  const { publishes, allowed, refusal, submissionKey } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { errors, onSubmit, onChange } = useValidatedForm(
    () => import("~/schemas/challenges").then((m) => m.challengeSchema),
    [],
    actionData?.errors,
    CHALLENGE_LISTS,
  );
  const heading = publishes ? "Create a Challenge" : "Propose a Challenge";
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <ParentLink to="/challenges">Challenges</ParentLink>
      <h1 className="mt-2 mb-8 font-serif text-4xl font-bold">{heading}</h1>
      {!allowed ? (
        <Card>
          <CardHeader>
            <CardTitle>Not yet</CardTitle>
            <CardDescription>{refusal} Advisors and admins create challenges.</CardDescription>
          </CardHeader>
        </Card>
      ) : (
        <Card>
          <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange}>
            <input type="hidden" name="submissionKey" value={submissionKey} />
            <CardHeader>
              <CardTitle>{publishes ? "A new challenge" : "Your proposal"}</CardTitle>
              <CardDescription>{publishes ? "It is published at once." : "An advisor reviews it and publishes it, or declines it."}</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-5">
              <FormAlert>{errors.form ?? errors.submissionKey}</FormAlert>
              <TextField name="title" label="Title" error={errors.title} maxLength={CHALLENGE_TITLE_MAX} />
              <MarkdownField name="description" label="Description" rows={4} maxLength={CHALLENGE_DESCRIPTION_MAX} error={errors.description} />
              <fieldset className="flex flex-col gap-2" aria-describedby={errors.path ? "path-error" : undefined}>
                <legend className="mb-1 text-sm font-medium">Path</legend>
                <div className="flex gap-6">
                  {PATHS.map((p) => (
                    <div key={p} className="flex items-center gap-2">
                      <input type="radio" id={`path-${p}`} name="path" value={p} className="size-4 accent-monk" />
                      <Label htmlFor={`path-${p}`} className="font-normal">
                        {PATH_NAME[p]}
                      </Label>
                    </div>
                  ))}
                </div>
                <FieldError id="path-error">{errors.path}</FieldError>
              </fieldset>
              <fieldset className="flex flex-col gap-2" aria-describedby={errors.virtues ? "virtues-error" : undefined}>
                <legend className="mb-1 text-sm font-medium">Virtues trained (one or two)</legend>
                <div className="grid gap-2 sm:grid-cols-3">
                  {VIRTUES.map((v) => (
                    <div key={v.id} className="flex items-center gap-2">
                      <Checkbox id={`virtue-${v.id}`} name="virtues" value={v.id} />
                      <Label htmlFor={`virtue-${v.id}`} className={v.path === "monk" ? "font-normal text-monk-strong" : "font-normal text-warrior-strong"}>
                        {v.label}
                      </Label>
                    </div>
                  ))}
                </div>
                <FieldError id="virtues-error">{errors.virtues}</FieldError>
              </fieldset>
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  name="lengthDays"
                  label="Length in days"
                  type="number"
                  inputMode="numeric"
                  error={errors.lengthDays}
                  min={CHALLENGE_NUMBER_MIN}
                  max={CHALLENGE_LENGTH_MAX}
                />
                <TextField
                  name="checkInsRequired"
                  label="Check-ins required"
                  type="number"
                  inputMode="numeric"
                  error={errors.checkInsRequired}
                  min={CHALLENGE_NUMBER_MIN}
                  max={CHALLENGE_LENGTH_MAX}
                />
              </div>
            </CardContent>
            <CardFooter>
              <Button type="submit" variant="monk" disabled={busy}>
                {busy ? "Saving..." : publishes ? "Publish Challenge" : "Send Proposal"}
              </Button>
            </CardFooter>
          </Form>
        </Card>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
