import { Link } from "~/components/ui/link";
import { REACTION_NAMES, REACTIONS, type Reaction, type ReactionBar } from "~/lib/reactions";

const chip = "inline-flex h-9 items-center gap-1.5 rounded-full border px-3 text-sm font-semibold";
const button = `${chip} transition-colors hover:bg-stone-100 focus-visible:outline-3 focus-visible:outline-offset-2`;

/**
 * A post's reactions (issue 31). Rendered to HTML on the server per viewer and kept by the browser
 * as it came (reaction-bar.server.tsx, as related posts are), so no page carries code for it: each
 * button is a plain form post that says which way (`add:thanks`, `remove:thanks`) and comes back to
 * the post's anchor; `aria-pressed` says which reactions are the viewer's. Someone who cannot react
 * sees the counts alone. "Who reacted" lists the members; "Flag" opens the post's flag form.
 */
export function ReactionBarMarkup({ path, counts, mine, canReact, back, flag }: ReactionBar) {
  const total = REACTION_NAMES.reduce((sum, r) => sum + counts[r], 0);
  if (!canReact && total === 0) return null;
  const label = (r: Reaction) => (
    <>
      <span aria-hidden="true">{REACTIONS[r].emoji}</span>
      {REACTIONS[r].label}
      {/* A flex item of its own: read as "Thanks 3", the gap separating them on screen. */}
      {counts[r] > 0 ? <span className="tabular-nums">{counts[r]}</span> : null}
    </>
  );
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2" role="group" aria-label="Reactions">
      {canReact ? (
        <form method="post" action={path} className="contents">
          <input type="hidden" name="redirectTo" value={back} />
          {REACTION_NAMES.map((r) => {
            const pressed = mine.includes(r);
            return (
              <button
                key={r}
                type="submit"
                name="change"
                value={`${pressed ? "remove" : "add"}:${r}`}
                aria-pressed={pressed}
                className={`${button} ${pressed ? "border-monk bg-monk-soft text-monk-strong" : "border-stone-300 bg-white text-ink"}`}
              >
                {label(r)}
              </button>
            );
          })}
        </form>
      ) : (
        REACTION_NAMES.filter((r) => counts[r] > 0).map((r) => (
          <span key={r} className={`${chip} border-stone-200 bg-stone-50 text-ink`}>
            {label(r)}
          </span>
        ))
      )}
      {total > 0 ? (
        <Link to={path} className="text-sm font-semibold text-monk-strong underline-offset-2 hover:underline">
          Who reacted
        </Link>
      ) : null}
      {flag ? (
        <Link to={flag} className="ml-auto text-sm text-muted underline-offset-2 hover:underline" rel="nofollow">
          Flag
        </Link>
      ) : null}
    </div>
  );
}
