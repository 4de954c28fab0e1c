import { Links, Meta, Outlet, ScrollRestoration, useLocation, useMatches, useRouteLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import { Footer } from "~/components/layout/footer";
import { SiteStylesheet } from "~/components/layout/inline-css";
import { NavigationBar } from "~/components/layout/navigation-bar";
import { Toaster } from "~/components/layout/toaster";
import { useNonce } from "~/components/layout/nonce";
import { Scripts } from "~/components/layout/scripts";
import { useLinkNavigation } from "~/components/ui/link";
import { useFocusAfterNavigation } from "~/components/layout/use-focus-after-navigation";
import { servicesContext, viewerContext, viewerRankContext, viewerUnreadContext } from "~/.server/context";
import { noticeRankUp } from "~/.server/domain/progression/rank-up";
import { clearFlashCookie, FLASHES, readFlash } from "~/.server/flash";
import { loadViewer } from "~/.server/session";
import { bellLabel } from "~/lib/notifications";
import { canonicalUrl } from "~/lib/canonical";
import stylesheet from "./app.css?url";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export const meta: Route.MetaFunction = () => [
  { title: "Inner Peace. Outer Strength." },
  {
    name: "description",
    content: "A digital sanctuary for self-discipline, resilience and purpose: train the mind like a monk and the body like a warrior.",
  },
];

const session: Route.MiddlewareFunction = async ({ request, context }, next) => {
  const { viewer, rank, unread, headers } = await loadViewer(context, request);
  context.set(viewerContext, viewer);
  context.set(viewerRankContext, rank);
  context.set(viewerUnreadContext, unread);
  const response = await next();
  for (const cookie of headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  if (readFlash(request)) {
    const secure = context.get(servicesContext).env.BASE_URL.startsWith("https://");
    response.headers.append("Set-Cookie", clearFlashCookie(secure));
  }
  return response;
};

export const middleware: Route.MiddlewareFunction[] = [session];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const flash = readFlash(request);
  // A rank-up shows once, on the member's next page after it (ADR 0022).
  const rankUp = viewer && !flash ? await noticeRankUp(context.get(servicesContext).db, viewer.id, context.get(viewerRankContext)) : null;
  return {
    // The canonical link's origin: the site's configured address, never the request's Host (ADR 0046).
    baseUrl: context.get(servicesContext).env.BASE_URL,
    // The bell's count travels with the viewer (issue 28); the session's fingerprint holds it, so a
    // kept page never shows a stale one (ADR 0040).
    viewer: viewer
      ? { name: viewer.name, handle: viewer.handle, role: viewer.role, avatar: viewer.avatar, ...unreadOf(context.get(viewerUnreadContext)) }
      : null,
    toast: flash
      ? { id: `${flash}-${Date.now()}`, ...FLASHES[flash] }
      : rankUp
        ? { id: `rank-up-${rankUp.id}`, title: `You are now ${rankUp.label}!`, description: `${rankUp.description}. Your rank rose with your XP and virtues.` }
        : null,
  };
}

/** The bell's count, and its badge's text, worked out here so the rule stays out of every page's script. */
function unreadOf(unread: number) {
  return { unread, unreadLabel: bellLabel(unread) };
}

export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  // After any form post the viewer or a toast may have changed.
  return formMethod ? true : defaultShouldRevalidate;
}

/**
 * The page's own path: a route whose loader returns `canonical` (a discussion's current slug) names
 * it; else the location's, not the root loader's request, which is not reloaded on every navigation.
 */
function canonicalPath(matches: ReturnType<typeof useMatches>, pathname: string) {
  for (const match of [...matches].reverse()) {
    const own = (match.loaderData as { canonical?: unknown } | null | undefined)?.canonical;
    if (typeof own === "string") return new URL(own).pathname;
  }
  return pathname;
}

/**
 * The page's canonical address (ADR 0046), for the document, which is what a crawler reads: worked
 * out by the server only, so its rules stay out of every page's scripts. The browser keeps the
 * document's link on that first entry; after a client-side navigation it would name the page the
 * document came with, so it is dropped then (React leaves a head link it did not render in place).
 */
function useCanonical(baseUrl: string | undefined) {
  const location = useLocation();
  const matches = useMatches();
  const onDocumentEntry = import.meta.env.SSR || location.key === (documentEntry ??= location.key);
  useEffect(() => {
    // With the document's social tags (issue 30), which name its first page too.
    if (!onDocumentEntry) for (const stale of document.querySelectorAll('link[rel="canonical"],meta[data-social]')) stale.remove();
  }, [onDocumentEntry]);
  if (import.meta.env.SSR) return baseUrl ? canonicalUrl(baseUrl, canonicalPath(matches, location.pathname), location.search) : null;
  // Hydration renders what the server did; the document's own address is read once.
  return onDocumentEntry ? (fromDocument ??= document.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? null) : null;
}

/** In the browser: the history entry the document was loaded for, and its canonical address. */
let documentEntry: string | undefined;
let fromDocument: string | null = null;

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const canonical = useCanonical(data?.baseUrl);
  useLinkNavigation();
  useFocusAfterNavigation();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {canonical ? <link rel="canonical" href={canonical} /> : null}
        <SiteStylesheet href={stylesheet} nonce={nonce} />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a href="#main" className="sr-only z-50 rounded bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:left-2 focus:top-2">
          Skip to content
        </a>
        <NavigationBar viewer={data?.viewer ?? null} />
        <main id="main" className="flex-1">
          {children}
        </main>
        <Footer />
        <Toaster toast={data?.toast ?? null} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

// The root catches what happens before any route renders (its own loader and middleware, such as a
// database that cannot be reached); every route module catches its own errors with the same component.
export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
