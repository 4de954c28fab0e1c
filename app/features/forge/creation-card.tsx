import { Heart } from "~/components/ui/icons/heart";
import { MessageCircle } from "~/components/ui/icons/message-circle";
import { Byline, type Author } from "~/components/community/byline";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatCount } from "~/lib/utils";
import type { CreationType } from "~/lib/domain-values";
import { CREATION_LABELS } from "./creation-types";

export interface CreationSummary {
  id: number;
  title: string;
  description: string;
  type: CreationType;
  likes: number;
  comments: number;
  author: Author;
  /** Visual Art: the thumbnail and its stored size, so the card keeps its box while it loads. */
  thumbnail?: { src: string; width: number; height: number } | null;
}

export function CreationCard({ creation, lazy = false }: { creation: CreationSummary; lazy?: boolean }) {
  return (
    <Card className="flex flex-col p-6">
      {creation.thumbnail ? (
        <img
          src={creation.thumbnail.src}
          width={creation.thumbnail.width}
          height={creation.thumbnail.height}
          loading={lazy ? "lazy" : "eager"}
          alt=""
          className="mb-4 aspect-[4/3] w-full rounded-md bg-stone-100 object-cover"
        />
      ) : null}
      <Badge className="self-start">{CREATION_LABELS[creation.type]}</Badge>
      <h3 className="mt-3 text-lg font-semibold">{creation.title}</h3>
      <p className="mt-2 flex-1 text-sm text-muted">{creation.description}</p>
      <div className="mt-3">
        <Byline author={creation.author} />
      </div>
      <div className="mt-4 flex items-center justify-between gap-3">
        <p className="flex gap-4 text-sm text-muted">
          <span className="inline-flex items-center gap-1">
            <Heart aria-hidden="true" className="size-4" />
            {formatCount(creation.likes)} <span className="sr-only">{creation.likes === 1 ? "like" : "likes"}</span>
          </span>
          <span className="inline-flex items-center gap-1">
            <MessageCircle aria-hidden="true" className="size-4" />
            {formatCount(creation.comments)} <span className="sr-only">{creation.comments === 1 ? "comment" : "comments"}</span>
          </span>
        </p>
        <ButtonLink to={`/forge/${creation.id}`} variant="outline" size="sm" aria-label={`View Creation: ${creation.title}`}>
          View Creation
        </ButtonLink>
      </div>
    </Card>
  );
}
