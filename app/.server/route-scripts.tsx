import { useContext } from "react";
import {
  Scripts as RouterScripts,
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FrameworkContext as FrameworkContext,
} from "react-router";

/**
 * React Router's `<Scripts>` on the server, with the module script's text kept per route (ADR 0037).
 *
 * With lazy route discovery React Router puts the part of the route manifest a page needs into the
 * page: on every request it matches the page's path and each parent path against every route,
 * gathers those routes' manifest entries and writes them as indented JSON, about 4% of a signed-in
 * page's server time. All of it follows from the matched routes and the parent paths, so the text
 * is kept in a bounded map per manifest (a new build has a new manifest). The markup is React
 * Router's, element for element, so its `<Scripts>` hydrates it in the browser: a test renders both
 * on the same pages and compares them, so an upgrade that changes React Router's fails there.
 * Any configuration but this site's (module reloading in development, SRI, SPA mode, eager route
 * discovery) is left to React Router's component.
 */

type FrameworkValue = NonNullable<React.ContextType<typeof FrameworkContext>>;
type Manifest = FrameworkValue["manifest"];
type ManifestRoute = NonNullable<Manifest["routes"][string]>;

interface RouteScripts {
  preloads: string[];
  moduleScript: string;
}

/** Entries kept per build: far more than the site has shapes of (routes, parent paths). */
const KEPT = 2000;
const byBuild = new WeakMap<Manifest, Map<string, RouteScripts>>();

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
  const { preloads, moduleScript } = routeScripts(manifest, matchedIds, parentPaths(state.location.pathname), (path) =>
    dataRouter.router.match(path)?.map((m) => m.route.id),
  );
  const contextScript = `window.__reactRouterContext = ${framework.serverHandoffString};window.__reactRouterContext.stream = new ReadableStream({start(controller){window.__reactRouterContext.streamController = controller;}}).pipeThrough(new TextEncoderStream());`;
  return (
    <>
      <link rel="modulepreload" href={manifest.entry.module} nonce={nonce} suppressHydrationWarning />
      {preloads.map((href) => (
        <link key={href} rel="modulepreload" href={href} nonce={nonce} suppressHydrationWarning />
      ))}
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
  if (!kept) byBuild.set(manifest, (kept = new Map()));
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
  const imports = matchedIds.map((id, index) => routeImport(routeEntry(manifest, id), `route${index}`));
  const moduleScript =
    `;\n${imports.join("\n")}\n` +
    `  window.__reactRouterManifest = ${JSON.stringify(partial, null, 2)};\n` +
    `  window.__reactRouterRouteModules = {${matchedIds.map((id, index) => `${JSON.stringify(id)}:route${index}`).join(",")}};\n\n` +
    `import(${JSON.stringify(manifest.entry.module)});`;

  const entry = { preloads: modulePreloads(manifest, matchedIds), moduleScript };
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, entry);
  return entry;
}

/** One route's modules as the client needs them: its main module, with any split-off client parts. */
function routeImport(route: ManifestRoute, name: string) {
  const chunks = [
    ...(route.clientActionModule ? [{ module: route.clientActionModule, name: `${name}_clientAction` }] : []),
    ...(route.clientLoaderModule ? [{ module: route.clientLoaderModule, name: `${name}_clientLoader` }] : []),
    ...(route.clientMiddlewareModule ? [{ module: route.clientMiddlewareModule, name: `${name}_clientMiddleware` }] : []),
    ...(route.hydrateFallbackModule ? [{ module: route.hydrateFallbackModule, name: `${name}_HydrateFallback` }] : []),
    { module: route.module, name: `${name}_main` },
  ];
  if (chunks.length === 1) return `import * as ${name} from ${JSON.stringify(route.module)};`;
  return [
    chunks.map((chunk) => `import * as ${chunk.name} from "${chunk.module}";`).join("\n"),
    `const ${name} = {${chunks.map((chunk) => `...${chunk.name}`).join(",")}};`,
  ].join("\n");
}

function routeEntry(manifest: Manifest, id: string) {
  const route = manifest.routes[id];
  if (!route) throw new Error(`Route ${id} not found in manifest`);
  return route;
}

/** The entry's imports, then each matched route's modules and what they import, each once. */
function modulePreloads(manifest: Manifest, matchedIds: string[]) {
  const hrefs = new Set(manifest.entry.imports);
  for (const id of matchedIds) {
    const route = manifest.routes[id];
    if (!route) continue;
    for (const href of [route.module, route.clientActionModule, route.clientLoaderModule, route.hydrateFallbackModule, ...(route.imports ?? [])]) {
      if (href) hrefs.add(href);
    }
  }
  return [...hrefs];
}
