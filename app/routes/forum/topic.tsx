import { Lock } from "~/components/ui/icons/lock";
import { MessageCircle } from "~/components/ui/icons/message-circle";
import { PenSquare } from "~/components/ui/icons/pen-square";
import { Pin } from "~/components/ui/icons/pin";
import { data, Form, redirect } from "react-router";
import { Link } from "~/components/ui/link";
import { hydrateLater } from "~/components/layout/hydrate-later";
import type { Route } from "./+types/topic";
import { Byline } from "~/components/community/byline";
import { PageHeader, SectionHeading } from "~/components/community/page-header";
import { Pager } from "~/components/community/pager";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { servicesContext, viewerContext } from "~/.server/context";
import { decodeActivityCursor, pageRequest } from "~/.server/pagination";
import { topicWithDiscussions } from "~/.server/domain/forum/forum-read-model";
import { setTopicMembership } from "~/.server/domain/forum/forum-service";
import { setWatching, watchLevelFor } from "~/.server/domain/notifications/notification-service";
import { topicHeading } from "~/.server/domain/forum/section-read-model";
import { requireViewer } from "~/.server/session";
import { parseForm, readForm } from "~/.server/forms";
import { watchSchema } from "~/schemas/notifications";
import { SECTIONS, sectionOrNotFound } from "~/features/forum/sections";
import { formatDate } from "~/lib/dates";
import { plural } from "~/lib/utils";
import { postsBreakdown } from "~/features/forum/topic-card";

// A member's watching level: a form that posts without JavaScript, hydrated after the page (ADR 0031).
const WatchControl = hydrateLater(() => import("~/components/community/watch-control").then((m) => m.WatchControl));

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [{ title: `${loaderData.topic.title} · ${SECTIONS[loaderData.topic.section].title}` }, { name: "description", content: loaderData.topic.description }]
    : [{ title: "Topic not found" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const section = sectionOrNotFound(params.section);
  if (params.topicId.length > 100) throw data("Not found", { status: 404 });
  const pageAsked = pageRequest(new URL(request.url).searchParams, decodeActivityCursor);
  if (!pageAsked.ok) throw data(pageAsked.errors.form, { status: pageAsked.status });
  const { db } = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  const shown = await topicWithDiscussions(db, viewer, section, params.topicId, pageAsked.value);
  if (!shown) throw data("Not found", { status: 404 });
  return { ...shown, signedIn: viewer !== null, watch: await watchLevelFor(db, viewer, `topic:${shown.topic.id}`) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  const topic = await topicHeading(services.db, sectionOrNotFound(params.section), params.topicId);
  if (!topic) throw data("Not found", { status: 404 });
  const intent = (await readForm(request, { clone: true })).get("intent");
  if (intent === "watch") {
    const parsed = await parseForm(request, watchSchema);
    if (!parsed.ok) throw data(parsed.errors.level ?? "Unknown level", { status: 400 });
    await setWatching(services, viewer, `topic:${topic.id}`, parsed.values.level);
    return redirect(`/${topic.section}/${topic.id}#watch`);
  }
  if (intent !== "join" && intent !== "leave") throw data("Unknown action", { status: 400 });
  await setTopicMembership(services, viewer, topic.id, intent === "join");
  return redirect(`/${topic.section}/${topic.id}`);
}

export default function Topic({ loaderData }: Route.ComponentProps) {
  const { topic, discussions, pages, signedIn, watch } = loaderData;
  const info = SECTIONS[topic.section];
  const here = `/${topic.section}/${topic.id}`;
  return (
    <>
      <PageHeader title={topic.title} intro={topic.description} tone={info.tone}>
        <p className="w-full text-sm text-stone-700">
          <Link to={`/${topic.section}`} className="font-semibold underline">
            {info.title}
          </Link>{" "}
          · {plural(topic.posts, "post")} ({postsBreakdown(topic)}) · {plural(topic.members, "member")}
        </p>
        <ButtonLink to={signedIn ? `${here}/new` : `/signin?redirectTo=${encodeURIComponent(`${here}/new`)}`} variant={info.tone}>
          <PenSquare aria-hidden="true" />
          Start a Discussion
        </ButtonLink>
        {signedIn ? (
          <Form method="post">
            <input type="hidden" name="intent" value={topic.joined ? "leave" : "join"} />
            <Button type="submit" variant="outline">
              {topic.joined ? "Leave Topic" : "Join Topic"}
            </Button>
          </Form>
        ) : (
          <ButtonLink to={`/signin?redirectTo=${encodeURIComponent(here)}`} variant="outline">
            Join Topic
          </ButtonLink>
        )}
        {watch ? <WatchControl what="topic" level={watch} className="w-full" /> : null}
      </PageHeader>
      <section aria-labelledby="discussions" className="mx-auto max-w-4xl px-4 py-12">
        <SectionHeading id="discussions">Discussions</SectionHeading>
        {discussions.length === 0 ? (
          <p className="text-muted">No discussions in this topic yet. Start the first one.</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {discussions.map((d) => (
              <li key={d.id}>
                <Card className="p-5">
                  <h3 className="flex flex-wrap items-center gap-2 text-lg font-semibold">
                    <Link to={d.href} className="hover:underline">
                      {d.title}
                    </Link>
                    {d.featured ? (
                      <Badge tone="monk">
                        <Pin aria-hidden="true" className="size-3" /> Featured
                      </Badge>
                    ) : null}
                    {d.locked ? (
                      <Badge>
                        <Lock aria-hidden="true" className="size-3" /> Locked
                      </Badge>
                    ) : null}
                    {d.hidden ? <Badge tone="warrior">Hidden</Badge> : null}
                  </h3>
                  <p className="mt-1 text-sm text-stone-700">{d.excerpt}</p>
                  <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
                    <Byline author={d.author}>
                      <span>last activity {formatDate(d.lastActivityAt)}</span>
                    </Byline>
                    <span className="inline-flex items-center gap-2 text-sm text-muted">
                      <span className="inline-flex items-center gap-1">
                        <MessageCircle aria-hidden="true" className="size-4" />
                        {plural(d.replies, "reply", "replies")}
                      </span>
                      {/* Replies since the member last read it (issue 28). */}
                      {d.newReplies ? <Badge tone="monk">{d.newReplies} new</Badge> : null}
                    </span>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        )}
        <Pager
          label="Discussion pages"
          links={{ first: pages.first, previous: pages.newer, next: pages.older, last: pages.last }}
          names={["Newest", "Newer", "Older", "Oldest"]}
        />
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
