import { Link } from "~/components/ui/link";
import { profilePath } from "~/lib/members";
import { cn } from "~/lib/utils";
import type { RankId } from "~/lib/ranks";
import { Avatar } from "./avatar";
import { RankBadge } from "./badges";

export interface Author {
  name: string;
  handle: string;
  rank: RankId;
  avatar?: string | null;
}

/**
 * Avatar, name and rank, with the post's own details (date, "edited") on a line of their own below,
 * so a narrow screen never starts a line with a stray "·".
 */
export function Byline({ author, children }: { author: Author; children?: React.ReactNode }) {
  return (
    <div data-slot="byline" data-member={author.handle} className="flex min-w-0 items-center gap-3 text-sm">
      <Avatar member={author} />
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <AuthorName author={author} />
        </p>
        {children ? <p className="mt-0.5 text-muted">{children}</p> : null}
      </div>
    </div>
  );
}

/**
 * The author's name and rank badge as one link to their profile (issue 11: every author name and
 * rank badge links there); a deleted account's "[deleted member]" has no profile and stays text.
 * The link needs no router (ADR 0035), so markup rendered once and reused across requests (reply
 * cards, ADR 0032) can hold it.
 */
export function AuthorName({ author, className }: { author: Author; className?: string }) {
  const href = profilePath(author.handle);
  const content = (
    <>
      <span data-slot="author-name" className="font-medium text-ink group-hover:underline">
        {author.name}
      </span>
      {href ? <RankBadge rank={author.rank} /> : null}
    </>
  );
  return href ? (
    <Link to={href} className={cnAuthor(className)}>
      {content}
    </Link>
  ) : (
    <span className={cnAuthor(className)}>{content}</span>
  );
}

const cnAuthor = (className?: string) => cn("group inline-flex flex-wrap items-center gap-x-2 gap-y-1", className);
