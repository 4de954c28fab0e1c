import type { RankId } from "~/lib/ranks";
import { RankBadge } from "./badges";

export interface Author {
  name: string;
  handle: string;
  rank: RankId;
}

export function Byline({ author, children }: { author: Author; children?: React.ReactNode }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
      <span className="font-medium text-ink">{author.name}</span>
      <RankBadge rank={author.rank} />
      {children}
    </p>
  );
}
