import { Byline, type Author } from "./byline";
import { Badge } from "~/components/ui/badge";
import { formatDate } from "~/lib/dates";
import { cn } from "~/lib/utils";
import { historyPath } from "~/lib/history";
import { Link } from "~/components/ui/link";

/**
 * "started Nov 23, 2026 · edited", with a hidden post's badge for those who see it (its author, the
 * moderators); a post veiled for the viewer says it is under review in place of its text instead.
 */
export function PostMeta({
  post,
  label,
  history,
}: {
  post: { createdAt: string; edited: boolean; badge: string | null };
  label: string;
  /** The post's edit history (lib/history.ts), which "edited" links to. */
  history: string;
}) {
  return (
    <span>
      {label} {formatDate(post.createdAt)}
      <EditedMark edited={post.edited} history={history} />
      <HiddenBadge badge={post.badge} />
    </span>
  );
}

/** "· edited" as a link to the post's edit history (issue 32); nothing for a post never edited. */
export function EditedMark({ edited, history }: { edited: boolean; history: string }) {
  if (!edited) return null;
  return (
    <>
      {/* A no-break space keeps the "·" on the date's line when the line wraps. */}
      {"\u00a0· "}
      <Link to={history} rel="nofollow" className="underline-offset-2 hover:underline">
        edited
      </Link>
    </>
  );
}

/** Why a hidden post is hidden (`hiddenBadgeText`, made by the server), for those who see it anyway. */
export function HiddenBadge({ badge }: { badge: string | null }) {
  return badge === null ? null : (
    <Badge tone="warrior" className="ml-2">
      {badge}
    </Badge>
  );
}

/** In place of the words of a post the flags hid, for everyone but its author and the moderators (issue 31). */
export function VeiledText({ className }: { className?: string }) {
  return <p className={cn("text-muted italic", className)}>Hidden while the community reviews it.</p>;
}

export interface ReplyCardContent {
  id: number;
  author: Author;
  createdAt: string;
  edited: boolean;
  /** Why it is hidden, for a viewer who sees it anyway (`hiddenBadgeText`). */
  badge: string | null;
  /** Hidden by the flags, for a viewer who reads "under review" in place of its words. */
  veiled: boolean;
  /** The reply it answers, if its author named one (issue 32): whose, and where. */
  replyTo: { name: string; url: string } | null;
  /** The rendered prose; null for a deleted or veiled reply. */
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
        <PostMeta post={reply} label="replied" history={historyPath("reply", reply.id)} />
      </Byline>
      {reply.replyTo ? (
        <p className="mt-1 text-sm text-muted">
          in reply to{" "}
          <Link to={reply.replyTo.url} className="font-semibold underline-offset-2 hover:underline">
            {reply.replyTo.name}
          </Link>
        </p>
      ) : null}
      {!withText ? null : reply.veiled ? (
        <VeiledText className="mt-3" />
      ) : reply.html !== null ? (
        <div className="prose-member mt-3" dangerouslySetInnerHTML={{ __html: reply.html }} />
      ) : (
        <p className="mt-3 text-muted">[deleted]</p>
      )}
    </>
  );
}

/** What the author of a post waiting on /review reads on it (`reviewNoteText`, made by the server); nothing otherwise. */
export function ReviewNote({ note, className }: { note: string | null; className?: string }) {
  if (note === null) return null;
  return (
    <p className={cn("rounded-md bg-warrior-soft p-3 text-sm text-stone-800", className)} role="note">
      {note}
    </p>
  );
}
