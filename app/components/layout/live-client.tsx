import { useNonce } from "./nonce";

/**
 * Starts the live updates' client, public/live.js (issue 28, ADR 0057), once the page has painted:
 * like the page's own modules (ADR 0041), nothing is fetched before the first contentful paint. A
 * browser without paint timing starts it at `load`; a tab nobody looks at paints, and so starts it,
 * when shown. Inline, with the page's nonce (or named by its hash on a kept page, ADR 0026).
 */
const START = `(() => {
  const go = () => document.body.append(Object.assign(document.createElement("script"), { src: "/live.js" }));
  if (!globalThis.PerformanceObserver?.supportedEntryTypes?.includes("paint")) return addEventListener("load", go);
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName("first-contentful-paint").length) observer.disconnect(), go();
  }).observe({ type: "paint", buffered: true });
})();`;

/** Server markup only (the footer's): the browser runs it once per document, and no bundle holds it. */
export function LiveClient() {
  const nonce = useNonce();
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: START }} />;
}
