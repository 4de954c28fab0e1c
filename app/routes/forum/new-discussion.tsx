import { data, Form, redirect, useNavigation } from "react-router";
import { pendingPostRedirect } from "~/.server/flash";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/new-discussion";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardFooter } from "~/components/ui/card";
import { MarkdownField } from "~/components/community/markdown-field";
import { draftPlace } from "~/lib/drafts";
import { FormAlert, TextField } from "~/components/ui/form-controls";
import { servicesContext } from "~/.server/context";
import { discussionPath, topicHeading } from "~/.server/domain/forum/section-read-model";
import { startDiscussion } from "~/.server/domain/forum/forum-service";
import { formKey, parseForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { SECTIONS, sectionOrNotFound } from "~/features/forum/sections";
import { discussionSchema } from "~/schemas/forum";
import { BODY_MAX, MARKDOWN_HELP, TITLE_MAX } from "~/schemas/fields";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Start a Discussion · ${loaderData?.topic.title ?? ""}` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const section = sectionOrNotFound(params.section);
  requireViewer(context, request);
  const topic = await topicHeading(context.get(servicesContext).db, section, params.topicId);
  if (!topic) throw data("Not found", { status: 404 });
  return { section, topic: { id: topic.id, title: topic.title }, submissionKey: formKey() };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const section = sectionOrNotFound(params.section);
  const viewer = requireViewer(context, request);
  const parsed = await parseForm(request, discussionSchema);
  if (!parsed.ok) return data({ errors: parsed.errors }, { status: 400 });
  const result = await startDiscussion(context.get(servicesContext), viewer, section, params.topicId, parsed.values);
  if (!result.ok) {
    if (result.status === 404) throw data("Not found", { status: 404 });
    return data({ errors: result.errors }, { status: result.status });
  }
  const secure = context.get(servicesContext).env.BASE_URL.startsWith("https://");
  if (result.value.pending) return pendingPostRedirect(`/${section}/${params.topicId}`, secure);
  return redirect(discussionPath(section, params.topicId, result.value));
}

export default function NewDiscussion({ loaderData, actionData }: Route.ComponentProps) {
  const { section, topic, submissionKey } = loaderData;
  const info = SECTIONS[section];
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/forum").then((m) => m.discussionSchema), [], actionData?.errors);
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <p className="text-sm">
        <Link to={`/${section}`} className="font-semibold underline">
          {info.title}
        </Link>{" "}
        ›{" "}
        <Link to={`/${section}/${topic.id}`} className="font-semibold underline">
          {topic.title}
        </Link>
      </p>
      <h1 className="mt-2 mb-8 font-serif text-4xl font-bold">Start a Discussion</h1>
      <Card>
        <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange}>
          <input type="hidden" name="submissionKey" value={submissionKey} />
          <CardContent className="flex flex-col gap-5 pt-6">
            <FormAlert>{errors.form ?? errors.submissionKey}</FormAlert>
            <TextField name="title" label="Title" error={errors.title} maxLength={TITLE_MAX} />
            <MarkdownField
              name="body"
              label="Your post"
              rows={10}
              maxLength={BODY_MAX}
              error={errors.body}
              help={MARKDOWN_HELP}
              draft={{ place: draftPlace("discussion", topic.id), label: `Discussion in ${topic.title}` }}
            />
          </CardContent>
          <CardFooter>
            <Button type="submit" variant={info.tone} disabled={busy}>
              {busy ? "Posting..." : "Post Discussion"}
            </Button>
          </CardFooter>
        </Form>
      </Card>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
