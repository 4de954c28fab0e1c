import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

type BuildRoutes = ServerBuild["routes"];
const trees = new WeakMap<BuildRoutes, RouteObject[]>();

/** The build's flat route manifest as the nested tree matchRoutes reads (built once per build). */
function treeOf(routes: BuildRoutes): RouteObject[] {
  let tree = trees.get(routes);
  if (tree) return tree;
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
  tree = children(undefined);
  trees.set(routes, tree);
  return tree;
}

/**
 * The path React Router matches for a request: single fetch's data requests (`/x.data`, and
 * `/_.data` for `/`) are read as the page they load, as its own `getNormalizedPath` does.
 */
function routedPath(pathname: string) {
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

type Matched = { id: string; handle: unknown } | undefined;

/** Paths already matched, per build: matchRoutes flattens, ranks and compiles every route on each call. */
const matched = new WeakMap<BuildRoutes, Map<string, Matched>>();
/** Enough for every page a busy day's readers ask for twice; a crawl past it starts the map afresh. */
const MATCHED_LIMIT = 10_000;
/** No page's own path is longer; a longer one (a probe) is matched but not remembered. */
const MATCHED_PATH_LIMIT = 256;

/**
 * The deepest route a request goes to (its id and `handle`), matched as React Router matches it.
 * Remembered per path: matching is a pure function of the build and the path, and costs about a
 * millisecond of CPU (every route's pattern compiled again), more than a kept page's whole answer.
 */
export function matchedRoute(build: ServerBuild, pathname: string): Matched {
  let known = matched.get(build.routes);
  if (!known) matched.set(build.routes, (known = new Map()));
  if (known.has(pathname)) return known.get(pathname);
  const matches = matchRoutes(treeOf(build.routes), routedPath(pathname), build.basename);
  const leaf = matches?.at(-1)?.route;
  const route = leaf ? { id: leaf.id!, handle: leaf.handle } : undefined;
  if (pathname.length > MATCHED_PATH_LIMIT) return route;
  if (known.size >= MATCHED_LIMIT) known.clear();
  known.set(pathname, route);
  return route;
}

/**
 * The body limit the route a request goes to declares (`export const handle = { maxBodyBytes }`),
 * decided by route identity. Undefined for every route that declares none (they keep the global 1 MB).
 */
export function routeBodyLimit(build: ServerBuild, pathname: string): number | undefined {
  const handle = matchedRoute(build, pathname)?.handle as { maxBodyBytes?: unknown } | undefined;
  return typeof handle?.maxBodyBytes === "number" ? handle.maxBodyBytes : undefined;
}
