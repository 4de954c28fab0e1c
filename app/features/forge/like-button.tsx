import { Heart } from "~/components/ui/icons/heart";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-controls";
import { cn, plural } from "~/lib/utils";

/**
 * The like toggle: a real form, so it works before (or without) JavaScript as a plain POST; with
 * it, a fetcher posts in the background and the button and count change at once (optimistic),
 * settling on what the server answers. The intent says which way ("like" / "unlike"), so a repeat
 * of the same post changes nothing.
 */
export function LikeButton({ liked, likes, canLike, error }: { liked: boolean; likes: number; canLike: boolean; error?: string }) {
  const fetcher = useFetcher<{ liked?: boolean; likes?: number; errors?: Record<string, string> }>();
  const pending = fetcher.formData?.get("intent");
  let shownLiked = liked;
  let shownLikes = likes;
  if (pending === "like" || pending === "unlike") {
    shownLiked = pending === "like";
    if (shownLiked !== liked) shownLikes += shownLiked ? 1 : -1;
  }
  const refused = fetcher.state === "idle" ? fetcher.data?.errors?.form : undefined;
  const count = (
    <span className="inline-flex items-center gap-1 text-sm text-muted" data-testid="like-count">
      <Heart aria-hidden="true" className={cn("size-4", shownLiked && "fill-current text-warrior")} /> {plural(shownLikes, "like")}
    </span>
  );
  if (!canLike) return count;
  return (
    <div className="flex flex-col gap-2">
      <fetcher.Form method="post" preventScrollReset className="flex items-center gap-3">
        <Button type="submit" name="intent" value={shownLiked ? "unlike" : "like"} aria-pressed={shownLiked} variant="outline" size="sm">
          <Heart aria-hidden="true" className={cn(shownLiked && "fill-current text-warrior")} />
          {shownLiked ? "Unlike" : "Like"}
        </Button>
        {count}
      </fetcher.Form>
      {refused || error ? <FormAlert>{refused ?? error}</FormAlert> : null}
    </div>
  );
}
