import { Scripts } from "react-router";

/** The element that holds React Router's scripts until the first paint (tests look for it). */
export const SCRIPTS_HOLDER_ID = "rr-scripts";

/**
 * Runs while the document is parsed, right after the holder. With scripting on, a browser reads a
 * <noscript>'s content as text, so nothing in it is fetched or run; parsing that text with
 * createContextualFragment gives scripts that run when inserted. React Router's context script runs
 * at once: the loader-data scripts that follow in the document feed the stream it creates. The
 * module preloads and the module script (route modules, then the client entry) go in after the first
 * contentful paint, or at once in a tab nobody sees (it paints when shown). Browsers without paint
 * timing wait for the next animation frame to be rendered. A safety net starts them 2 s after the
 * load event, should no paint ever be reported. The CSP accepts the inserted scripts: they keep
 * their nonce, or their text has the hash the page cache listed (ADR 0026).
 */
const ACTIVATE = `(() => {
  const holder = document.getElementById(${JSON.stringify(SCRIPTS_HOLDER_ID)});
  const parsed = document.createRange().createContextualFragment(holder.textContent);
  const later = [];
  for (const el of Array.from(parsed.children)) {
    if (el.localName === "script" && el.type !== "module") holder.before(el);
    else later.push(el);
  }
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const el of later) (el.localName === "link" ? document.head : document.body).append(el);
  };
  if (document.visibilityState !== "visible") return start();
  addEventListener("visibilitychange", start, { once: true });
  addEventListener("load", () => setTimeout(start, 2000), { once: true });
  if (((window.PerformanceObserver || {}).supportedEntryTypes || []).includes("paint")) {
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      setTimeout(start);
    });
    observer.observe({ type: "paint", buffered: true });
  } else requestAnimationFrame(() => setTimeout(start));
})();`;

/**
 * React Router's <Scripts>, started after the first paint instead of from modulepreloads in the
 * head (ADR 0033): the page is server-rendered with its CSS inline, so its first paint needs no
 * script, and the ~20–27 chunks no longer compete with the document for the connection and the
 * main thread before it. In development the plain <Scripts> stays (Vite's client, HMR).
 */
export function DeferredScripts({ nonce }: { nonce?: string }) {
  if (import.meta.env.DEV) return <Scripts nonce={nonce} />;
  return (
    <>
      {/* React does not hoist links out of <noscript>, and does not hydrate its content. */}
      <noscript id={SCRIPTS_HOLDER_ID}>
        <Scripts nonce={nonce} />
      </noscript>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: ACTIVATE }} />
    </>
  );
}
