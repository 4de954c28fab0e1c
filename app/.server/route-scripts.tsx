import { useContext } from "react";
import {
  Scripts as RouterScripts,
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FrameworkContext as FrameworkContext,
} from "react-router";
import { Lru } from "~/lib/lru";

/**
 * React Router's `<Scripts>` on the server, with the module script's text kept per route (ADR 0037)
 * and the page's modules fetched only after its first paint (ADR 0041).
 *
 * With lazy route discovery React Router puts the part of the route manifest a page needs into the
 * page: on every request it matches the page's path and each parent path against every route,
 * gathers those routes' manifest entries and writes them as indented JSON, about 4% of a signed-in
 * page's server time. All of it follows from the matched routes and the parent paths, so the text
 * is kept in a bounded map per manifest (a new build has a new manifest).
 *
 * The elements are React Router's, so its `<Scripts>` hydrates them in the browser: the context
 * script, word for word, and the module script. The module script does what React Router's does
 * (route modules, then the manifest and the modules on `window`, then the client entry) with one
 * difference: it first waits for the first contentful paint, then adds the module preloads React
 * Router would have put in the head and imports the route modules. A page is server-rendered with
 * its CSS inline and needs no script to paint, so nothing competes with the document before that
 * paint (ADR 0041). A test compares the markup with React Router's element for element (the
 * preloads and the module script's text aside) and runs both module scripts against one stand-in
 * browser to compare what they do, so an upgrade that changes React Router's fails there. Any
 * configuration but this site's (module reloading in development, SRI, SPA mode, eager route
 * discovery) is left to React Router's component.
 */

type FrameworkValue = NonNullable<React.ContextType<typeof FrameworkContext>>;
type Manifest = FrameworkValue["manifest"];
type ManifestRoute = NonNullable<Manifest["routes"][string]>;

interface RouteScripts {
  moduleScript: string;
}

/** Entries kept per build: far more than the site has shapes of (routes, parent paths). */
const KEPT = 2000;
const byBuild = new WeakMap<Manifest, Lru<string, RouteScripts>>();

/**
 * The module script's first statement: resolves after the first contentful paint (paint timing),
 * or after the next frame where a browser has no paint timing, at once in a tab nobody sees (it
 * paints only when shown, and hydrating it costs the reader nothing), and after 3 s whatever
 * happens, so a page whose paint is never reported still hydrates.
 */
const AFTER_FIRST_PAINT = `await new Promise((go) => {
  if (document.visibilityState !== "visible") return go();
  addEventListener("visibilitychange", go, { once: true });
  setTimeout(go, 3000);
  if (!globalThis.PerformanceObserver?.supportedEntryTypes?.includes("paint")) return requestAnimationFrame(() => setTimeout(go));
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName("first-contentful-paint").length) observer.disconnect(), setTimeout(go);
  }).observe({ type: "paint", buffered: true });
});`;

export function ServerScripts({ nonce }: { nonce?: string }) {
  const framework = useContext(FrameworkContext);
  const dataRouter = useContext(DataRouterContext);
  const state = useContext(DataRouterStateContext);
  if (!framework || !dataRouter?.static || !state || !handledHere(framework)) return <RouterScripts nonce={nonce} />;
  // The single-fetch data stream is written only after the scripts that read it: React Router's
  // <Scripts> leaves this mark for its StreamTransfer, which renders after it in the same pass.
  // eslint-disable-next-line react-hooks/immutability -- the render-scoped record React Router keeps for exactly this
  if (framework.renderMeta) framework.renderMeta.didRenderScripts = true;

  const { manifest } = framework;
  const matchedIds = state.matches.map((m) => m.route.id);
  const { moduleScript } = routeScripts(manifest, matchedIds, parentPaths(state.location.pathname), (path) =>
    dataRouter.router.match(path)?.map((m) => m.route.id),
  );
  const contextScript = `window.__reactRouterContext = ${framework.serverHandoffString};window.__reactRouterContext.stream = new ReadableStream({start(controller){window.__reactRouterContext.streamController = controller;}}).pipeThrough(new TextEncoderStream());`;
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: contextScript }} />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: moduleScript }} type="module" async />
    </>
  );
}

function handledHere(framework: FrameworkValue) {
  return (
    framework.routeDiscovery.mode === "lazy" &&
    framework.ssr === true &&
    !framework.isSpaMode &&
    !framework.manifest.hmr &&
    typeof framework.manifest.sri !== "object"
  );
}

/** "/a/b/c" → ["/", "/a/b", "/a"]: the paths whose routes the client also gets up front. */
function parentPaths(pathname: string) {
  const segments = pathname.split("/").filter(Boolean);
  const paths = ["/"];
  segments.pop();
  while (segments.length > 0) {
    paths.push(`/${segments.join("/")}`);
    segments.pop();
  }
  return paths;
}

function routeScripts(manifest: Manifest, matchedIds: string[], parents: string[], match: (path: string) => string[] | undefined): RouteScripts {
  let kept = byBuild.get(manifest);
  if (!kept) byBuild.set(manifest, (kept = new Lru(KEPT)));
  const key = `${matchedIds.join("\n")}\n\n${parents.join("\n")}`;
  const found = kept.get(key);
  if (found) return found;

  const routeIds = new Set(matchedIds);
  for (const path of parents) for (const id of match(path) ?? []) routeIds.add(id);
  const routes: Record<string, ManifestRoute | undefined> = {};
  for (const id of routeIds) routes[id] = manifest.routes[id];
  // The manifest without its integrity map, with only these routes, in React Router's key order.
  const { sri, ...rest } = manifest;
  const partial = { ...rest, routes, sri: sri ? true : undefined };
  const moduleScript =
    `${AFTER_FIRST_PAINT}\n` +
    `for (const href of ${JSON.stringify(modulePreloads(manifest, matchedIds))}) document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));\n` +
    `${routeImports(matchedIds.map((id) => routeEntry(manifest, id)))}\n` +
    `  window.__reactRouterManifest = ${JSON.stringify(partial, null, 2)};\n` +
    `  window.__reactRouterRouteModules = {${matchedIds.map((id, index) => `${JSON.stringify(id)}:route${index}`).join(",")}};\n\n` +
    `import(${JSON.stringify(manifest.entry.module)});`;

  const entry = { moduleScript };
  kept.set(key, entry);
  return entry;
}

/**
 * The route modules, fetched together (the preloads have started every fetch) and kept as React
 * Router's own script names them: `route<i>`, one route's split-off client parts spread into it.
 */
function routeImports(routes: ManifestRoute[]) {
  const perRoute = routes.map((route, index) => {
    const split = [
      ...(route.clientActionModule ? [{ module: route.clientActionModule, name: `route${index}_clientAction` }] : []),
      ...(route.clientLoaderModule ? [{ module: route.clientLoaderModule, name: `route${index}_clientLoader` }] : []),
      ...(route.clientMiddlewareModule ? [{ module: route.clientMiddlewareModule, name: `route${index}_clientMiddleware` }] : []),
      ...(route.hydrateFallbackModule ? [{ module: route.hydrateFallbackModule, name: `route${index}_HydrateFallback` }] : []),
    ];
    return split.length === 0 ? [{ module: route.module, name: `route${index}` }] : [...split, { module: route.module, name: `route${index}_main` }];
  });
  const all = perRoute.flat();
  return [
    `const [${all.map((part) => part.name).join(", ")}] = await Promise.all([${all.map((part) => `import(${JSON.stringify(part.module)})`).join(", ")}]);`,
    ...perRoute.flatMap((parts, index) => (parts.length === 1 ? [] : [`const route${index} = {${parts.map((part) => `...${part.name}`).join(",")}};`])),
  ].join("\n");
}

function routeEntry(manifest: Manifest, id: string) {
  const route = manifest.routes[id];
  if (!route) throw new Error(`Route ${id} not found in manifest`);
  return route;
}

/** The entry and its imports, then each matched route's modules and what they import, each once. */
function modulePreloads(manifest: Manifest, matchedIds: string[]) {
  const hrefs = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of matchedIds) {
    const route = manifest.routes[id];
    if (!route) continue;
    for (const href of [route.module, route.clientActionModule, route.clientLoaderModule, route.hydrateFallbackModule, ...(route.imports ?? [])]) {
      if (href) hrefs.add(href);
    }
  }
  return [...hrefs];
}
