import { data, Form, redirect, useNavigation } from "react-router";
import { pendingPostRedirect } from "~/.server/flash";
import { ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/ask";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardFooter } from "~/components/ui/card";
import { MarkdownField } from "~/components/community/markdown-field";
import { FormAlert, TextField } from "~/components/ui/form-controls";
import { servicesContext } from "~/.server/context";
import { askQuestion } from "~/.server/domain/council/council-service";
import { formKey, parseForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { VirtuePicker } from "~/features/council/virtue-picker";
import { similarQuestions } from "~/.server/domain/search/related-read-model";
import { hydrateLater } from "~/components/layout/hydrate-later";

// Not needed for the form to work: its list follows the title once the page is interactive (ADR 0031).
const SimilarQuestions = hydrateLater(() => import("~/features/council/similar-questions").then((m) => m.SimilarQuestions));
import { questionSchema } from "~/schemas/council";
import { MARKDOWN_HELP, QUESTION_LISTS } from "~/schemas/fields";
import { BODY_MAX, TITLE_MAX } from "~/schemas/fields";

export const meta: Route.MetaFunction = () => [{ title: "Ask a Question · The Council" }, { name: "robots", content: "noindex" }];

export function loader({ request, context }: Route.LoaderArgs) {
  requireViewer(context, request);
  return { submissionKey: formKey() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const parsed = await parseForm(request, questionSchema, [], QUESTION_LISTS);
  if (!parsed.ok) return data({ errors: parsed.errors, values: parsed.raw }, { status: 400 });
  const services = context.get(servicesContext);
  // Questions like it, shown once before it is posted when the member has not seen them (issue 30):
  // without JavaScript, this is where they appear.
  if (parsed.formData.get("similarSeen") !== "1") {
    const similar = await similarQuestions(services.db, parsed.values.title);
    if (similar.length > 0) return { errors: {}, values: parsed.raw, similar };
  }
  const result = await askQuestion(services, viewer, parsed.values);
  if (!result.ok) return data({ errors: result.errors, values: parsed.raw }, { status: result.status });
  if (result.value.pending) return pendingPostRedirect("/council", context.get(servicesContext).env.BASE_URL.startsWith("https://"));
  return redirect(`/council/${result.value.id}`);
}

export default function Ask({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { errors, onSubmit, onChange } = useValidatedForm(
    () => import("~/schemas/council").then((m) => m.questionSchema),
    [],
    actionData?.errors,
    QUESTION_LISTS,
  );
  // What was typed, back in the form after a refusal or the similar questions.
  const values = actionData?.values as Record<string, unknown> | undefined;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <ParentLink to="/council" accent>
        The Council
      </ParentLink>
      <h1 className="mt-2 mb-2 font-serif text-4xl font-bold">Ask a Question</h1>
      <p className="mb-8 text-stone-700">Experienced monks and warriors answer. Say what you tried and where you are stuck.</p>
      <Card>
        <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange}>
          <input type="hidden" name="submissionKey" value={loaderData.submissionKey} />
          <CardContent className="flex flex-col gap-5 pt-6">
            <FormAlert>{errors.form ?? errors.submissionKey}</FormAlert>
            <TextField name="title" label="Title" error={errors.title} maxLength={TITLE_MAX} defaultValue={text(values?.title)} />
            <SimilarQuestions titleId="title" initial={actionData && "similar" in actionData ? actionData.similar : []} />
            <MarkdownField
              name="body"
              label="Your question"
              draft={{ place: "question:new", label: "Question for the Council" }}
              rows={10}
              maxLength={BODY_MAX}
              error={errors.body}
              help={MARKDOWN_HELP}
              defaultValue={text(values?.body)}
            />
            <VirtuePicker
              idPrefix="ask"
              chosen={Array.isArray(values?.virtues) ? (values.virtues as string[]) : []}
              error={errors.virtues ?? Object.entries(errors).find(([k]) => k.startsWith("virtues."))?.[1]}
            />
          </CardContent>
          <CardFooter>
            <Button type="submit" variant="monk" disabled={busy}>
              {busy ? "Posting..." : "Post Question"}
            </Button>
          </CardFooter>
        </Form>
      </Card>
    </div>
  );
}

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
