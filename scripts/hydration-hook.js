/**
 * How the browser suites know React has hydrated a page. Every page gets a minimal React DevTools
 * hook before any script runs; React calls `onCommitFiberRoot` after each commit, so the first call
 * means the server-rendered page has been hydrated and its event handlers are live. Waiting for it
 * (instead of sleeping) keeps clicks from landing on markup React does not own yet, and keeps a
 * checker's own script tags out of the document React is still hydrating.
 */
export const HYDRATION_HOOK = `(() => {
  if (window.__REACT_DEVTOOLS_GLOBAL_HOOK__) return;
  window.__e2eHydrated = false;
  let nextId = 1;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject(renderer) { const id = nextId++; this.renderers.set(id, renderer); return id; },
    onCommitFiberRoot() { window.__e2eHydrated = true; window.__e2eLastCommit = performance.now(); },
    onPostCommitFiberRoot() {},
    onCommitFiberUnmount() {},
    onScheduleFiberRoot() {},
    checkDCE() {},
  };
})();`;

/** Run in the page (`page.waitForFunction(hydrated)`): whether React has hydrated it. */
export function hydrated() {
  return window.__e2eHydrated === true;
}

/**
 * Run in the page: hydrated, and no React commit for 400 ms. Parts that hydrate later (ADR 0031)
 * commit when their chunk arrives; a checker reading the document while one of them is being
 * hydrated could see its server markup and its client markup at once.
 */
export function settled() {
  return window.__e2eHydrated === true && performance.now() - window.__e2eLastCommit > 400;
}
