import { renderToStaticMarkup } from "react-dom/server";
import { Lru } from "~/lib/lru";
import { REACTION_NAMES, type ReactionBar } from "~/lib/reactions";
import { ReactionBarMarkup } from "./reaction-bar";

/**
 * Bars by everything they are made of: a discussion page renders up to 51 of them on every miss of
 * the page cache, so each distinct bar (a post's counts, as one kind of viewer sees them) is rendered
 * once and reused by later requests, as reply cards are (ADR 0032). Keys are short: counts, the
 * viewer's reactions, addresses the server made.
 */
const bars = new Lru<string, string>(5000, { weigh: (key, markup) => key.length + markup.length, maxWeight: 8 * 1024 * 1024 });

/** A post's reaction bar as HTML for the page's markup alone ("" when there is nothing to show); no code in the browser. */
export function reactionBarHtml(bar: ReactionBar | undefined): string {
  // Someone who cannot react sees counts alone: a post without any shows nothing.
  if (!bar || (!bar.canReact && REACTION_NAMES.every((r) => bar.counts[r] === 0))) return "";
  const key = JSON.stringify([bar.path, bar.back, bar.flag, bar.canReact, bar.mine, REACTION_NAMES.map((r) => bar.counts[r])]);
  const cached = bars.get(key);
  if (cached !== undefined) return cached;
  const markup = renderToStaticMarkup(<ReactionBarMarkup {...bar} />);
  bars.set(key, markup);
  return markup;
}
