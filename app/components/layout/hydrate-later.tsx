import { createElement, Suspense, use, type ComponentType } from "react";

/**
 * A part of a page that the page does not need in order to become interactive, such as a post's
 * comment form (issue 13, ADR 0031): its script is a chunk of its own, left out of the JavaScript
 * loaded before hydration.
 *
 * In the browser the chunk is fetched when React first renders the part. While hydrating, React keeps
 * the server's markup inside the Suspense boundary (a form in it still posts without JavaScript) and
 * hydrates it when the chunk has arrived; the rest of the page does not wait. On the server the chunk
 * is a local module, imported when the route module loads; the server entry waits for partsLoading()
 * before it renders, so the page is rendered in full, as it was before, even by the first request.
 */
export function hydrateLater<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const start = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed fetch (offline, a new deployment) is tried again on the next render.
        loading = null;
        throw error;
      },
    ));
  if (import.meta.env.SSR) {
    // A failure shows when the part renders (the route's error boundary), not on every page.
    serverLoads.push(start().catch(() => undefined));
    allLoaded = false;
  }

  function Part(props: P) {
    // Once loaded, always the same component type, so the form is never remounted (typed text stays).
    return createElement(loaded ?? use(start()), props);
  }
  function Later(props: P) {
    return <Suspense fallback={null}>{createElement(Part, props)}</Suspense>;
  }
  return Later;
}

const serverLoads: Promise<unknown>[] = [];
let allLoaded = false;

/** On the server: a promise while some part is still loading (only just after start), else null. */
export function partsLoading(): Promise<unknown> | null {
  if (allLoaded) return null;
  return Promise.all(serverLoads).then(() => {
    allLoaded = serverLoads.length > 0;
  });
}
