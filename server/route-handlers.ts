import type { ServerBuild } from "react-router";

/** A route module's loader, action, or one of its middleware, as the server build holds it. */
export type RouteHandler = (...args: never[]) => unknown;
export type RouteHandlerKind = "loader" | "action" | "middleware";
export type WrapRouteHandler = (handler: RouteHandler, kind: RouteHandlerKind) => RouteHandler;

const mappedBuilds = new WeakMap<WrapRouteHandler, WeakMap<ServerBuild, ServerBuild>>();

/**
 * The same server build with every route's loader, action and middleware passed through `wrap`.
 * Each build is wrapped once per `wrap` (define it once, not inline): the server asks again for
 * every request, and a development build is replaced on each change.
 */
export function mapRouteHandlers(build: ServerBuild, wrap: WrapRouteHandler): ServerBuild {
  let builds = mappedBuilds.get(wrap);
  if (!builds) mappedBuilds.set(wrap, (builds = new WeakMap()));
  const known = builds.get(build);
  if (known) return known;
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route];
      const module = { ...route.module } as Record<string, unknown>;
      if (typeof module.loader === "function") module.loader = wrap(module.loader as RouteHandler, "loader");
      if (typeof module.action === "function") module.action = wrap(module.action as RouteHandler, "action");
      if (Array.isArray(module.middleware)) module.middleware = module.middleware.map((m: RouteHandler) => wrap(m, "middleware"));
      return [id, { ...route, module: module as unknown as typeof route.module }];
    }),
  );
  const mapped = { ...build, routes };
  builds.set(build, mapped);
  return mapped;
}
