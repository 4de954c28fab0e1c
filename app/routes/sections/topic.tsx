import { MessageCircle } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/topic";
import { Byline } from "~/components/community/byline";
import { PageHeader, SectionHeading } from "~/components/community/page-header";
import { Card } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { topicPage } from "~/.server/domain/sections/section-pages";
import { SECTIONS, sectionFromPath } from "~/features/sections/sections";
import { formatDate } from "~/lib/dates";
import { formatCount, plural } from "~/lib/utils";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        { title: `${loaderData.topic.title} · ${SECTIONS[loaderData.topic.section].title}` },
        { name: "description", content: loaderData.topic.description },
      ]
    : [{ title: "Topic not found" }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const section = sectionFromPath(new URL(request.url).pathname);
  if (!section || params.topicId.length > 100) throw data("Not found", { status: 404 });
  const page = await topicPage(context.get(servicesContext).db, section, params.topicId);
  if (!page) throw data("Not found", { status: 404 });
  return page;
}

export default function Topic({ loaderData }: Route.ComponentProps) {
  const { topic, discussions } = loaderData;
  const info = SECTIONS[topic.section];
  return (
    <>
      <PageHeader title={topic.title} intro={topic.description} tone={info.tone}>
        <p className="text-sm text-stone-700">
          <Link to={`/${topic.section}`} className="font-semibold underline">
            {info.title}
          </Link>{" "}
          · {formatCount(topic.posts)} posts · {formatCount(topic.members)} members
        </p>
      </PageHeader>
      <section aria-labelledby="discussions" className="mx-auto max-w-4xl px-4 py-12">
        <SectionHeading id="discussions">Discussions</SectionHeading>
        {discussions.length === 0 ? (
          <p className="text-muted">No discussions in this topic yet.</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {discussions.map((d) => (
              <li key={d.id}>
                <Card className="p-5">
                  <h3 className="text-lg font-semibold">{d.title}</h3>
                  <p className="mt-1 text-sm text-stone-700">{d.excerpt}</p>
                  <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
                    <Byline author={d.author}>
                      <span>· last activity {formatDate(d.lastActivityAt)}</span>
                    </Byline>
                    <span className="inline-flex items-center gap-1 text-sm text-muted">
                      <MessageCircle aria-hidden="true" className="size-4" />
                      {plural(d.replies, "reply", "replies")}
                    </span>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
