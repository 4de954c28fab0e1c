import { MessageSquare } from "~/components/ui/icons/message-square";
import { Users } from "~/components/ui/icons/users";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatCount } from "~/lib/utils";
import type { SectionId } from "~/lib/domain-values";

export interface TopicSummary {
  id: string;
  section: SectionId;
  title: string;
  description: string;
  posts: number;
  members: number;
}

export function TopicCard({ topic }: { topic: TopicSummary }) {
  const tone = topic.section === "monastery" ? "monk" : "warrior";
  return (
    <Card className="flex flex-col p-6">
      <h3 className="text-lg font-semibold">{topic.title}</h3>
      <p className="mt-2 flex-1 text-sm text-muted">{topic.description}</p>
      <div className="mt-4 flex items-center justify-between gap-3">
        <p className="flex gap-4 text-sm text-muted">
          <span className="inline-flex items-center gap-1">
            <MessageSquare aria-hidden="true" className="size-4" />
            {formatCount(topic.posts)} posts
          </span>
          <span className="inline-flex items-center gap-1">
            <Users aria-hidden="true" className="size-4" />
            {formatCount(topic.members)} members
          </span>
        </p>
        <ButtonLink
          to={`/${topic.section}/${topic.id}`}
          variant={tone}
          size="sm"
          aria-label={`Explore ${topic.title}`}
        >
          Explore
        </ButtonLink>
      </div>
    </Card>
  );
}
