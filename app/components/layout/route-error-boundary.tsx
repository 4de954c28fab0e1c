import { hydrateLater } from "./hydrate-later";

/**
 * The one ErrorBoundary every route module exports (ADR 0016). Caught at the route, an error
 * replaces only that route's part of the page: the root layout, its navigation and the signed-in
 * member stay, and the screen says what failed: 404 the seed's not-found page, 503 the temporarily
 * unavailable screen, another status its code and message, anything else the seed's
 * "Unexpected Application Error!" (with the stack in development only).
 *
 * The screens' script is loaded only when an error is shown (ADR 0031): a page without an error never
 * needs it, so it is not among what every page loads before it is interactive.
 */
export const RouteErrorBoundary = hydrateLater<object>(() => import("./error-screens").then((m) => m.RouteErrorScreen));
