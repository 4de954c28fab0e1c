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
 * The body limit the route a request goes to declares (`export const handle = { maxBodyBytes }`),
 * decided by route identity: the same matching React Router does, on the path, with single fetch's
 * `.data` suffix taken off. Undefined for every route that declares none (they keep the global 1 MB).
 */
export function routeBodyLimit(build: ServerBuild, pathname: string): number | undefined {
  const path = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  const matches = matchRoutes(treeOf(build.routes), path, build.basename);
  const handle = matches?.at(-1)?.route.handle as { maxBodyBytes?: unknown } | undefined;
  return typeof handle?.maxBodyBytes === "number" ? handle.maxBodyBytes : undefined;
}
