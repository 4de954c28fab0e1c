/**
 * The query parameters that choose what a page shows: a list's page (pagination's `after`, `before`
 * and `page`) and the filters of the forge (`type`) and the council (`virtue`, `view`). Everything
 * else (`edit`, tokens, `redirectTo`, tracking tags) leaves the page what it is, so the canonical
 * address drops it (ADR 0046).
 */
export const CANONICAL_QUERY = ["type", "virtue", "view", "after", "before", "page"] as const;

/**
 * A page's canonical address: the site's own BASE_URL, the path without a trailing slash, and only
 * the parameters above, in that fixed order (so `?b&a` and `?a&b` name one page). `page=first` is
 * the list's first page, the address without it.
 */
export function canonicalUrl(baseUrl: string, pathname: string, search = ""): string {
  const origin = new URL(baseUrl).origin;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : "/";
  const url = new URL(origin);
  // Set as a pathname, never resolved as a reference: "//x" must stay a path on this host.
  url.pathname = path;
  const given = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of CANONICAL_QUERY) {
    const value = given.get(name);
    if (value === null || (name === "page" && value === "first")) continue;
    kept.set(name, value);
  }
  const query = kept.toString();
  return `${origin}${url.pathname}${query ? `?${query}` : ""}`;
}
