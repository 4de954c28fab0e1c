import { isRouteErrorResponse, useRouteError } from "react-router";
import { NotFoundScreen, StatusScreen, UnavailableScreen, UnexpectedErrorScreen } from "./error-screens";

/**
 * The one ErrorBoundary every route module exports (ADR 0016). Caught at the route, an error
 * replaces only that route's part of the page: the root layout, its navigation and the signed-in
 * member stay, and the screen says what failed: 404 the seed's not-found page, 503 the temporarily
 * unavailable screen, another status its code and message, anything else the seed's
 * "Unexpected Application Error!" (with the stack in development only).
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFoundScreen />;
    if (error.status === 503) return <UnavailableScreen />;
    const message = typeof error.data === "string" && error.data ? error.data : error.statusText || "Something went wrong";
    return <StatusScreen status={error.status} message={message} />;
  }
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return <UnexpectedErrorScreen detail={detail} />;
}
