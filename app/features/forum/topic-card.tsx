import { MessageSquare } from "~/components/ui/icons/message-square";
import { Users } from "~/components/ui/icons/users";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { plural } from "~/lib/utils";
import type { SectionId } from "~/lib/domain-values";

export interface TopicSummary {
  id: string;
  section: SectionId;
  title: string;
  description: string;
  /** Discussions plus replies. */
  posts: number;
  discussions: number;
  replies: number;
  members: number;
}

/** What a topic's post count is made of: "1 discussion, 4 replies". */
export function postsBreakdown(topic: Pick<TopicSummary, "discussions" | "replies">) {
  return `${plural(topic.discussions, "discussion")}, ${plural(topic.replies, "reply", "replies")}`;
}

export function TopicCard({ topic }: { topic: TopicSummary }) {
  const tone = topic.section === "monastery" ? "monk" : "warrior";
  return (
    <Card className="flex flex-col p-6">
      <h3 className="text-lg font-semibold">{topic.title}</h3>
      <p className="mt-2 flex-1 text-sm text-muted">{topic.description}</p>
      {/* "Posts" counts replies too; saying so keeps "5 posts" from promising five discussions. */}
      <p className="mt-4 text-sm text-muted">
        <MessageSquare aria-hidden="true" className="mr-1 inline size-4 align-text-bottom" />
        <span>{plural(topic.posts, "post")}</span> ({postsBreakdown(topic)})
      </p>
      <div className="mt-2 flex items-center justify-between gap-3">
        <p className="inline-flex items-center gap-1 text-sm text-muted">
          <Users aria-hidden="true" className="size-4" />
          {plural(topic.members, "member")}
        </p>
        <ButtonLink to={`/${topic.section}/${topic.id}`} variant={tone} size="sm" aria-label={`Explore ${topic.title}`}>
          Explore
        </ButtonLink>
      </div>
    </Card>
  );
}
