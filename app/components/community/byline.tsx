import { Link } from "react-router";
import { profilePath } from "~/lib/members";
import { cn } from "~/lib/utils";
import type { RankId } from "~/lib/ranks";
import { Avatar } from "./avatar";
import { RankBadge } from "./badges";

export interface Author {
  name: string;
  handle: string;
  rank: RankId;
}

/**
 * Avatar, name and rank, with the post's own details (date, "edited") on a line of their own below,
 * so a narrow screen never starts a line with a stray "·".
 */
export function Byline({ author, children, plainLink }: { author: Author; children?: React.ReactNode; plainLink?: boolean }) {
  return (
    <div data-slot="byline" data-member={author.handle} className="flex min-w-0 items-center gap-3 text-sm">
      <Avatar name={author.name} handle={author.handle} />
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <AuthorName author={author} plainLink={plainLink} />
        </p>
        {children ? <p className="mt-0.5 text-muted">{children}</p> : null}
      </div>
    </div>
  );
}

/**
 * The author's name and rank badge as one link to their profile (issue 11: every author name and
 * rank badge links there); a deleted account's "[deleted member]" has no profile and stays text.
 * `plainLink` makes it a plain <a> that needs no router, for markup rendered once and reused across
 * requests (reply cards, ADR 0032): an ancestor's `useClientLinks` handler navigates client-side.
 */
export function AuthorName({ author, className, plainLink }: { author: Author; className?: string; plainLink?: boolean }) {
  const href = profilePath(author.handle);
  const content = (
    <>
      <span data-slot="author-name" className="font-medium text-ink group-hover:underline">
        {author.name}
      </span>
      {href ? <RankBadge rank={author.rank} /> : null}
    </>
  );
  if (href && plainLink) {
    // data-discover as <Link> writes it, so React Router's lazy route discovery still sees the link.
    return (
      <a className={cnAuthor(className)} href={href} data-discover="true" data-client-link="">
        {content}
      </a>
    );
  }
  return href ? (
    <Link to={href} className={cnAuthor(className)}>
      {content}
    </Link>
  ) : (
    <span className={cnAuthor(className)}>{content}</span>
  );
}

const cnAuthor = (className?: string) => cn("group inline-flex flex-wrap items-center gap-x-2 gap-y-1", className);
