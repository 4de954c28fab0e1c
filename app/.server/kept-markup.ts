import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/**
 * The layout's parts (`ServerMarkup` ids) that are the same on every page for everyone: the brand
 * and the two search fields of the navigation bar, the footer's links. A part that shows anything of
 * the request, the viewer or the time (the bell, the footer's year) must not be named here.
 */
export const SAME_EVERYWHERE: ReadonlySet<string> = new Set(["brand", "bar-search", "menu-search", "footer-links"]);

const kept = new Map<string, string>();

/**
 * The markup of a part named in SAME_EVERYWHERE, rendered the first time a page asks for it and
 * kept for the process (about a fifth of every page's elements, which React rendered again for each
 * page before); undefined for any other part, which the page renders itself. The browser keeps the
 * part's markup as the document holds it, so nothing here is hydrated.
 */
export function keptMarkup(id: string, part: ReactElement): string | undefined {
  // In development an edited part must show on the next page, without a restart.
  if (process.env.NODE_ENV === "development" || !SAME_EVERYWHERE.has(id)) return undefined;
  let html = kept.get(id);
  if (html === undefined) kept.set(id, (html = renderToStaticMarkup(part)));
  return html;
}
