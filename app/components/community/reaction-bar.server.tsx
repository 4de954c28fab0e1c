import { renderToStaticMarkup } from "react-dom/server";
import type { ReactionBar } from "~/lib/reactions";
import { ReactionBarMarkup } from "./reaction-bar";

/** A post's reaction bar as HTML for the page's markup alone ("" when there is nothing to show); no code in the browser. */
export function reactionBarHtml(bar: ReactionBar | undefined): string {
  return bar ? renderToStaticMarkup(<ReactionBarMarkup {...bar} />) : "";
}
