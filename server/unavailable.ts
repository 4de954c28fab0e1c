import { data, type RouterContextProvider, type ServerBuild } from "react-router";
import { requestContext } from "~/.server/context";
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS, unavailableReason } from "~/.server/db/unavailable";
import { mapRouteHandlers, type RouteHandler, type WrapRouteHandler } from "./route-handlers";

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

/** Guards each handler once; one function, so each build is wrapped once (`mapRouteHandlers`). */
const guardHandler: WrapRouteHandler = (handler) => guard(handler as unknown as Handler) as unknown as RouteHandler;

/**
 * The same server build with every route's loader, action and middleware guarded. Done once here,
 * at the edge, so that neither the domain nor the routes need to know about connection failures.
 */
export function guardDatabaseUnavailable(build: ServerBuild): ServerBuild {
  return mapRouteHandlers(build, guardHandler);
}
