import { data, type RouterContextProvider, type ServerBuild } from "react-router";
import { requestContext } from "~/.server/context";
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS, unavailableReason } from "~/.server/db/unavailable";

export const UNAVAILABLE_MESSAGE = "The site is temporarily unavailable. Please try again in a few moments.";

type Handler = (args: { context: Readonly<RouterContextProvider> }, ...rest: unknown[]) => unknown;

/**
 * Wraps a handler so that "the database cannot be reached" leaves it as an expected 503 (thrown
 * `data()`, which React Router renders in the route's ErrorBoundary, or the root's for the root's
 * own loader and middleware, on document and `.data` requests alike) instead of an unexpected 500.
 * Any other error passes through untouched.
 */
function guard<F extends Handler>(handler: F): F {
  const guarded = async (args: { context: Readonly<RouterContextProvider> }, ...rest: unknown[]) => {
    try {
      return await handler(args, ...rest);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      try {
        args.context.get(requestContext).logger.warn({ reason: unavailableReason(error) }, "database unavailable");
      } catch {
        // No request context (not through our server): the 503 still stands.
      }
      throw data(UNAVAILABLE_MESSAGE, {
        status: 503,
        statusText: "Service Unavailable",
        headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
      });
    }
  };
  return Object.assign(guarded, handler) as unknown as F;
}

const guardedBuilds = new WeakMap<ServerBuild, ServerBuild>();

/**
 * The same server build with every route's loader, action and middleware guarded. Done once here,
 * at the edge, so that neither the domain nor the routes need to know about connection failures.
 */
export function guardDatabaseUnavailable(build: ServerBuild): ServerBuild {
  const known = guardedBuilds.get(build);
  if (known) return known;
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route];
      const module = { ...route.module } as Record<string, unknown>;
      if (typeof module.loader === "function") module.loader = guard(module.loader as Handler);
      if (typeof module.action === "function") module.action = guard(module.action as Handler);
      if (Array.isArray(module.middleware)) module.middleware = module.middleware.map((m: Handler) => guard(m));
      return [id, { ...route, module: module as unknown as typeof route.module }];
    }),
  );
  const guarded = { ...build, routes };
  guardedBuilds.set(build, guarded);
  return guarded;
}
