import { Byline, type Author } from "./byline";
import { Badge } from "~/components/ui/badge";
import { formatDate } from "~/lib/dates";

/** "started Nov 23, 2026 · edited", with the moderators' "Hidden" badge. */
export function PostMeta({ post, label }: { post: { createdAt: string; edited: boolean; hidden: boolean }; label: string }) {
  return (
    <span>
      {label} {formatDate(post.createdAt)}
      {/* A no-break space keeps the "·" on the date's line when the line wraps. */}
      {post.edited ? "\u00a0· edited" : ""}
      {post.hidden ? (
        <Badge tone="warrior" className="ml-2">
          Hidden by a moderator
        </Badge>
      ) : null}
    </span>
  );
}

export interface ReplyCardContent {
  author: Author;
  createdAt: string;
  edited: boolean;
  hidden: boolean;
  /** The rendered prose; null for a deleted reply. */
  html: string | null;
}

/**
 * What a reply card shows every viewer alike: byline, date and text (without the text while its
 * author edits it). The server renders it to a string once per version of the reply and reuses it
 * (app/features/forum/reply-cards.server.tsx, ADR 0032), so it must not use the router; its profile
 * link is the site's router-free <Link> (ADR 0035).
 */
export function ReplyCardMarkup({ reply, withText }: { reply: ReplyCardContent; withText: boolean }) {
  return (
    <>
      <Byline author={reply.author}>
        <PostMeta post={reply} label="replied" />
      </Byline>
      {!withText ? null : reply.html !== null ? (
        <div className="prose-member mt-3" dangerouslySetInnerHTML={{ __html: reply.html }} />
      ) : (
        <p className="mt-3 text-muted">[deleted]</p>
      )}
    </>
  );
}
