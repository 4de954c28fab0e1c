import { data, Form, redirect, useNavigation } from "react-router";
import { Link, ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/new-topic";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert, TextAreaField, TextField } from "~/components/ui/form-controls";
import { servicesContext } from "~/.server/context";
import { progressOf } from "~/.server/domain/progression/progression-service";
import { createTopic } from "~/.server/domain/forum/forum-service";
import { sectionTopics } from "~/.server/domain/forum/section-read-model";
import { TOPIC_RANK } from "~/lib/privileges";
import { TEXT_LINK_CLASS } from "~/lib/site";
import { parseForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { SECTIONS, sectionOrNotFound } from "~/features/forum/sections";
import { isRankAtLeast, rankById } from "~/lib/ranks";
import { topicSchema } from "~/schemas/forum";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Create a topic · ${loaderData ? SECTIONS[loaderData.section].title : ""}` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const section = sectionOrNotFound(params.section);
  const viewer = requireViewer(context, request);
  const { db } = context.get(servicesContext);
  const progress = await progressOf(db, viewer.id);
  const unlock = rankById(TOPIC_RANK);
  const allowed = isRankAtLeast(progress.rank.id, TOPIC_RANK);
  // Below the rank, the page is no dead end: the section's topics, each a place to start a discussion.
  const topics = allowed ? [] : (await sectionTopics(db, section)).map((t) => ({ id: t.id, title: t.title }));
  return {
    section,
    allowed,
    topics,
    unlock: { label: unlock.label, minXp: unlock.minXp },
    xp: progress.xp,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const section = sectionOrNotFound(params.section);
  const viewer = requireViewer(context, request);
  const parsed = await parseForm(request, topicSchema);
  if (!parsed.ok) return data({ errors: parsed.errors }, { status: 400 });
  const result = await createTopic(context.get(servicesContext), viewer, section, parsed.values);
  if (!result.ok) return data({ errors: result.errors }, { status: result.status });
  return redirect(`/${section}/${result.value.id}`);
}

export default function NewTopic({ loaderData, actionData }: Route.ComponentProps) {
  const { section, allowed, topics, unlock, xp } = loaderData;
  const info = SECTIONS[section];
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/forum").then((m) => m.topicSchema), [], actionData?.errors);
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <ParentLink to={`/${section}`}>{info.title}</ParentLink>
      <h1 className="mt-2 mb-8 font-serif text-4xl font-bold">Create New Topic</h1>
      {!allowed ? (
        <Card>
          <CardHeader>
            <CardTitle>Not yet</CardTitle>
            <CardDescription>
              Creating topics unlocks at the {unlock.label} rank ({unlock.minXp} XP). You have {xp} XP: start discussions and reply to earn more.
            </CardDescription>
          </CardHeader>
          {topics.length > 0 ? (
            <CardContent>
              <h3 id="start-in-topic" className="font-semibold">
                Start a discussion in a topic
              </h3>
              <ul aria-labelledby="start-in-topic" className="mt-3 flex flex-col gap-2">
                {topics.map((topic) => (
                  <li key={topic.id}>
                    <Link to={`/${section}/${topic.id}/new`} className={TEXT_LINK_CLASS}>
                      {`Start a discussion in ${topic.title}`}
                    </Link>
                  </li>
                ))}
              </ul>
            </CardContent>
          ) : null}
        </Card>
      ) : (
        <Card>
          <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange}>
            <CardHeader>
              <CardTitle>A new topic in {info.title}</CardTitle>
              <CardDescription>Members join topics and start discussions in them.</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-5">
              <FormAlert>{errors.form}</FormAlert>
              <TextField name="title" label="Title" error={errors.title} maxLength={80} />
              <TextAreaField name="description" label="Description" rows={3} maxLength={300} error={errors.description} />
            </CardContent>
            <CardFooter>
              <Button type="submit" variant={info.tone} disabled={busy}>
                {busy ? "Creating..." : "Create Topic"}
              </Button>
            </CardFooter>
          </Form>
        </Card>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
