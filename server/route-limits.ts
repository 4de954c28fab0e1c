import { createStaticHandler, type RouteObject, type ServerBuild, type StaticHandler } from "react-router";
import { Lru } from "~/lib/lru";

type BuildRoutes = ServerBuild["routes"];

/** The build's flat route manifest as the nested tree React Router's matcher reads. */
function treeOf(routes: BuildRoutes): RouteObject[] {
  const children = (parentId: string | undefined): RouteObject[] =>
    Object.values(routes)
      .filter((route) => route?.parentId === parentId)
      .map((route) => ({
        id: route!.id,
        path: route!.path,
        caseSensitive: route!.caseSensitive,
        handle: route!.module.handle,
        ...(route!.index ? { index: true as const } : { children: children(route!.id) }),
      })) as RouteObject[];
  return children(undefined);
}

/**
 * The path React Router matches for a request: single fetch's data requests (`/x.data`, and
 * `/_.data` for `/`) are read as the page they load, as its own `getNormalizedPath` does.
 */
function routedPath(pathname: string) {
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

/** A matcher per build: React Router's static handler flattens and ranks the routes once. */
const matchers = new WeakMap<BuildRoutes, StaticHandler>();

type Matched = { id: string; handle: unknown } | null;
/**
 * The answers for the paths asked most recently, per build: a page's path is matched here for its
 * cache policy and metrics, then again by React Router, and matching one path walks the routes in
 * rank order (a few percent of a miss). Bounded in paths and in their characters: a path is the
 * client's to choose.
 */
const answers = new WeakMap<BuildRoutes, Lru<string, Matched>>();
const MATCHES_KEPT = 2000;

/**
 * The deepest route a request goes to (its id and `handle`), matched as React Router matches it,
 * by its own matcher. `matchRoutes` flattened, ranked and compiled every route again on each call
 * (about a millisecond a page, more than a kept page's whole answer).
 */
export function matchedRoute(build: ServerBuild, pathname: string): { id: string; handle: unknown } | undefined {
  let known = answers.get(build.routes);
  if (!known) answers.set(build.routes, (known = new Lru(MATCHES_KEPT, { weigh: (path) => path.length, maxWeight: 256 * 1024 })));
  let matched = known.get(pathname);
  if (matched === undefined) {
    let matcher = matchers.get(build.routes);
    if (!matcher) matchers.set(build.routes, (matcher = createStaticHandler(treeOf(build.routes), { basename: build.basename })));
    const leaf = matcher.match(routedPath(pathname))?.at(-1)?.route;
    matched = leaf ? { id: leaf.id, handle: leaf.handle } : null;
    known.set(pathname, matched);
  }
  return matched ?? undefined;
}

/**
 * The body limit the route a request goes to declares (`export const handle = { maxBodyBytes }`),
 * decided by route identity. Undefined for every route that declares none (they keep the global 1 MB).
 */
export function routeBodyLimit(build: ServerBuild, pathname: string): number | undefined {
  const handle = matchedRoute(build, pathname)?.handle as { maxBodyBytes?: unknown } | undefined;
  return typeof handle?.maxBodyBytes === "number" ? handle.maxBodyBytes : undefined;
}
