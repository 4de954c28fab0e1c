import { MessageCircle } from "~/components/ui/icons/message-circle";
import { Link } from "~/components/ui/link";
import { Byline, type Author } from "~/components/community/byline";
import { Card } from "~/components/ui/card";
import { plural } from "~/lib/utils";
import type { SectionId } from "~/lib/domain-values";

export interface DiscussionSummary {
  id: number;
  title: string;
  href: string;
  excerpt: string;
  replies: number;
  topicId: string;
  topicTitle: string;
  section: SectionId;
  author: Author;
}

export function DiscussionCard({ discussion }: { discussion: DiscussionSummary }) {
  return (
    <Card className="flex flex-col p-6">
      <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">
        <Link to={`/${discussion.section}/${discussion.topicId}`} className="hover:underline">
          {discussion.topicTitle}
        </Link>
      </p>
      <h3 className="text-lg font-semibold">
        <Link to={discussion.href} className="hover:underline">
          {discussion.title}
        </Link>
      </h3>
      <p className="mt-2 flex-1 text-sm text-stone-700">{discussion.excerpt}</p>
      {/* The reply count stays on the author's line: a long name or rank wraps inside the byline,
          never pushing "3 replies" under it (issue 26 item 12). */}
      <div className="mt-4 flex items-center justify-between gap-2">
        <Byline author={discussion.author} />
        <span className="inline-flex shrink-0 items-center gap-1 whitespace-nowrap text-sm text-muted">
          <MessageCircle aria-hidden="true" className="size-4" />
          {plural(discussion.replies, "reply", "replies")}
        </span>
      </div>
    </Card>
  );
}
