import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  Scripts as RouterScripts,
  StaticRouterProvider,
  UNSAFE_FrameworkContext as FrameworkContext,
  type RouteObject,
} from "react-router";
import { describe, expect, it } from "vitest";
import { ServerScripts } from "./route-scripts";

type FrameworkValue = NonNullable<React.ContextType<typeof FrameworkContext>>;

// A route tree shaped like the site's: a root layout, static and dynamic children, a dynamic route
// three levels down, a splat; one route with its client loader split off.
const tree = [
  { id: "root", parentId: undefined, path: "" },
  { id: "routes/home", parentId: "root", index: true },
  { id: "routes/council", parentId: "root", path: "council" },
  { id: "routes/question", parentId: "root", path: "council/:questionId" },
  { id: "routes/section", parentId: "root", path: ":section" },
  { id: "routes/topic", parentId: "root", path: ":section/:topicId" },
  { id: "routes/discussion", parentId: "root", path: ":section/:topicId/:discussionRef" },
  { id: "routes/not-found", parentId: "root", path: "*" },
];

function manifestRoute(r: (typeof tree)[number]) {
  const name = r.id.replace("routes/", "");
  return {
    ...r,
    caseSensitive: undefined,
    hasAction: name === "discussion",
    hasLoader: true,
    hasClientAction: false,
    hasClientLoader: name === "question",
    hasClientMiddleware: false,
    hasErrorBoundary: true,
    module: `/assets/${name}-abc.js`,
    clientLoaderModule: name === "question" ? `/assets/${name}-client-loader-abc.js` : undefined,
    imports: [`/assets/${name}-chunk.js`, "/assets/shared-chunk.js"],
    css: [],
  };
}

const manifest = {
  entry: { module: "/assets/entry.client-abc.js", imports: ["/assets/react-abc.js", "/assets/shared-chunk.js"] },
  url: "/assets/manifest-abc.js",
  version: "abc",
  routes: Object.fromEntries(tree.map((r) => [r.id, manifestRoute(r)])),
} as unknown as FrameworkValue["manifest"];

function routeObjects(scripts: ReactNode): RouteObject[] {
  const children = (parentId: string): RouteObject[] =>
    tree
      .filter((r) => r.parentId === parentId)
      .map((r) => (r.index ? { id: r.id, index: true, loader: () => null } : { id: r.id, path: r.path, loader: () => null, children: children(r.id) }));
  return [{ id: "root", path: "/", loader: () => null, element: scripts, children: children("root") }];
}

async function render(url: string, scripts: ReactNode) {
  const handler = createStaticHandler(routeObjects(scripts));
  const context = await handler.query(new Request(`http://site.test${url}`));
  if (context instanceof Response) throw new Error(`${url} gave a response`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const framework = {
    manifest,
    routeModules: {},
    criticalCss: undefined,
    serverHandoffString: '{"basename":"/","future":{},"ssr":true,"isSpaMode":false}',
    future: {},
    ssr: true,
    isSpaMode: false,
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    renderMeta: {},
  } as unknown as FrameworkValue;
  const html = renderToString(
    createElement(FrameworkContext.Provider, { value: framework }, createElement(StaticRouterProvider, { router, context, hydrate: false })),
  );
  return { html, renderMeta: framework.renderMeta };
}

describe("ServerScripts (ADR 0037)", () => {
  const pages = ["/", "/council", "/council/12-why-sit", "/monastery", "/monastery/morning-meditation", "/monastery/morning-meditation/9-fifty-replies", "/no/such/page/here"];

  it.each(pages)("renders what React Router's <Scripts> renders on %s", async (url) => {
    const theirs = await render(url, createElement(RouterScripts, { nonce: "n0nce" }));
    const ours = await render(url, createElement(ServerScripts, { nonce: "n0nce" }));
    expect(ours.html).toBe(theirs.html);
    expect(ours.html).toContain("window.__reactRouterManifest");
    // The single-fetch data stream is written only after the scripts that read it.
    expect(ours.renderMeta).toEqual({ didRenderScripts: true });
  });

  it("gives the same markup the second time, from what it kept", async () => {
    const url = "/monastery/morning-meditation/10-another";
    const first = await render(url, createElement(ServerScripts, { nonce: "a" }));
    const again = await render(url, createElement(ServerScripts, { nonce: "a" }));
    const theirs = await render(url, createElement(RouterScripts, { nonce: "a" }));
    expect(again.html).toBe(first.html);
    expect(again.html).toBe(theirs.html);
  });

  it("includes the routes of the parent paths and preloads each module once", async () => {
    const { html } = await render("/council/12-why-sit", createElement(ServerScripts, {}));
    const manifestJson = html.match(/window\.__reactRouterManifest = ([\s\S]*?);\n/)![1]!;
    const routes = Object.keys(JSON.parse(manifestJson.replaceAll("&quot;", '"')).routes);
    expect(routes).toEqual(["root", "routes/question", "routes/home", "routes/council"]);
    const preloads = [...html.matchAll(/rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(preloads).size).toBe(preloads.length);
    expect(preloads).toContain("/assets/question-client-loader-abc.js");
  });
});
