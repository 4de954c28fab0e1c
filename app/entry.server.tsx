import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import {
  isRouteErrorResponse,
  ServerRouter,
  type EntryContext,
  type HandleDataRequestFunction,
  type HandleErrorFunction,
  type RouterContextProvider,
} from "react-router";
import { partsLoading } from "~/components/layout/hydrate-later";
import { InlineCssProvider } from "~/components/layout/inline-css";
import { NonceProvider } from "~/components/layout/nonce";
import { ServerScriptsProvider } from "~/components/layout/scripts";
import { KeptMarkupContext } from "~/components/layout/server-markup";
import { keptMarkup } from "~/.server/kept-markup";
import { ServerScripts } from "~/.server/route-scripts";
import { builtStylesheet, withStylesheet } from "~/.server/inline-css";
import stylesheet from "./app.css?url";
import { requestContext, servicesContext } from "~/.server/context";
import { coalescingStream } from "~/.server/coalescing-stream";
import { RETRY_AFTER_SECONDS } from "~/.server/db/unavailable";
import { withSocialMeta } from "~/.server/social-meta";
import { SITE_PREVIEW } from "~/.server/domain/discovery/previews";

const SITE_NAME = "Inner Peace. Outer Strength.";

export const streamTimeout = 5_000;

/** Any 503 (the database is unreachable: server/unavailable.ts) tells the client when to retry. */
const RETRY_AFTER = String(RETRY_AFTER_SECONDS);

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (responseStatusCode === 503 && !responseHeaders.has("Retry-After")) responseHeaders.set("Retry-After", RETRY_AFTER);
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce } = loadContext.get(requestContext);
  const baseUrl = new URL(loadContext.get(servicesContext).env.BASE_URL).origin;
  // Parts a page hydrates later are rendered in full on the server (ADR 0031); after the first
  // requests they are all loaded and the page renders at once.
  const loading = partsLoading();
  return loading ? loading.then(render) : render();

  function render() {
    return new Promise<Response>((resolve, reject) => {
      let shellRendered = false;
      const userAgent = request.headers.get("user-agent");
      // Crawlers get the whole page at once; people get the shell as soon as it is ready.
      const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
      let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

      const css = builtStylesheet(stylesheet);
      const { pipe, abort } = renderToPipeableStream(
        <NonceProvider value={nonce}>
          <InlineCssProvider value={css === null ? null : { text: css, spliced: true }}>
            <ServerScriptsProvider value={ServerScripts}>
              <KeptMarkupContext.Provider value={keptMarkup}>
                <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
              </KeptMarkupContext.Provider>
            </ServerScriptsProvider>
          </InlineCssProvider>
        </NonceProvider>,
        {
          nonce,
          // Every part the render has ready goes out in its place. React sends a Suspense boundary
          // found past the first 12,800 bytes apart, in a hidden element a script moves later: our
          // boundaries are the parts hydrated later (ADR 0031), all ready before the render, and
          // forms among them (the footer's newsletter, a reply's) then showed to no browser without
          // JavaScript, at the cost of a script and a move in every other.
          progressiveChunkSize: Number.POSITIVE_INFINITY,
          [readyOption]() {
            shellRendered = true;
            // One chunk per turn instead of React's 2 KB writes (see coalescingStream).
            const body = coalescingStream({
              // Open Graph and Twitter tags from the page's own head (issue 30), and the
              // stylesheet's text into its empty <style>, from bytes encoded once.
              first: (chunk) => {
                const social = withSocialMeta(chunk, SITE_NAME, `${baseUrl}${SITE_PREVIEW}`);
                return css === null ? social : withStylesheet(social, css);
              },
              final(callback) {
                clearTimeout(timeoutId);
                timeoutId = undefined;
                callback();
              },
            });
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            // Pages carry the member's own state (navigation, forms): never a shared cache.
            if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
            pipe(body);
            resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          },
          onShellError(error: unknown) {
            reject(error);
          },
          onError(error: unknown) {
            responseStatusCode = 500;
            if (shellRendered) loadContext.get(requestContext).logger.error({ err: error }, "render error");
          },
        },
      );
    });
  }
}

/** Client-side navigations (`.data` requests) get the same Retry-After as documents. */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  if (response.status === 503 && !response.headers.has("Retry-After")) response.headers.set("Retry-After", RETRY_AFTER);
  return response;
};

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // React Router's own 4xx (405 for a POST to a page without an action, 404 for an unknown .data
  // route) are the client's mistake: requestLogging records them at info, not as errors.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const path = new URL(request.url).pathname;
  // The context is missing when the request failed before it was built; still log the error.
  let logger: { error: (obj: object, msg: string) => void } | undefined;
  try {
    logger = (context as RouterContextProvider | undefined)?.get(requestContext).logger;
  } catch {
    logger = undefined;
  }
  if (logger) logger.error({ err: error, path }, "unhandled error");
  else console.error("unhandled error", path, error);
};
