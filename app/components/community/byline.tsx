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
export function Byline({ author, children }: { author: Author; children?: React.ReactNode }) {
  return (
    <div data-slot="byline" data-member={author.handle} className="flex min-w-0 items-center gap-3 text-sm">
      <Avatar name={author.name} handle={author.handle} />
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-medium text-ink">{author.name}</span>
          <RankBadge rank={author.rank} />
        </p>
        {children ? <p className="mt-0.5 text-muted">{children}</p> : null}
      </div>
    </div>
  );
}
