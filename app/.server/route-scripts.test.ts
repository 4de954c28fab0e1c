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

/** The inline scripts and module preloads of a rendered page, as the browser would read them. */
function scriptsOf(html: string) {
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({ attributes: m[1]!, text: m[2]! }));
  return {
    context: scripts.find((s) => s.text.startsWith("window.__reactRouterContext = "))?.text,
    module: scripts.find((s) => s.attributes.includes('type="module"'))?.text ?? "",
    preloads: [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!),
  };
}

type Paint = "paint timing" | "no paint timing" | "hidden";

/**
 * Runs a page's module script against a stand-in browser: every `import` records its module and
 * gives a namespace naming it, every element put in the head is recorded, and paint timing reports
 * the first contentful paint only when the test calls `paint()`. React Router's own script uses
 * static imports, which a function body cannot hold: they become awaited imports in the same order.
 */
function runModuleScript(text: string, { paint = "paint timing" as Paint } = {}) {
  const done: string[] = [];
  const window: Record<string, unknown> = {};
  const listeners = new Map<string, () => void>();
  const timers = new Map<number, () => void>();
  let onPaint: ((list: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void) | undefined;
  let nextFrame: (() => void) | undefined;
  const PerformanceObserver = class {
    static supportedEntryTypes = paint === "no paint timing" ? ["navigation", "resource"] : ["navigation", "paint", "resource"];
    constructor(callback: typeof onPaint) {
      onPaint = callback;
    }
    observe(options: { type: string; buffered: boolean }) {
      expect(options).toEqual({ type: "paint", buffered: true });
    }
    disconnect() {}
  };
  const document = {
    visibilityState: paint === "hidden" ? "hidden" : "visible",
    createElement: (tag: string) => ({ tag }),
    head: { append: (el: { tag: string; rel: string; href: string }) => done.push(`${el.tag} ${el.rel} ${el.href}`) },
  };
  const body = text.replaceAll("import(", "__import(").replace(/^import \* as (\w+) from ("[^"]+");$/gm, "const $1 = await __import($2);");
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
  const run = new AsyncFunction(
    "window",
    "document",
    "globalThis",
    "PerformanceObserver",
    "addEventListener",
    "setTimeout",
    "requestAnimationFrame",
    "__import",
    body,
  );
  const finished = run(
    window,
    document,
    { PerformanceObserver },
    PerformanceObserver,
    (type: string, listener: () => void) => listeners.set(type, listener),
    (callback: () => void, ms?: number) => (ms ? timers.set(ms, callback) : queueMicrotask(callback)),
    (callback: () => void) => (nextFrame = callback),
    async (href: string) => {
      done.push(`import ${href}`);
      return { [href]: true };
    },
  );
  return {
    done,
    window,
    listeners,
    timers,
    finished,
    paint: () => onPaint?.({ getEntriesByName: (name) => (name === "first-contentful-paint" ? [{}] : []) }, { disconnect() {} }),
    frame: () => nextFrame?.(),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("ServerScripts (ADR 0037, ADR 0041)", () => {
  const pages = [
    "/",
    "/council",
    "/council/12-why-sit",
    "/monastery",
    "/monastery/morning-meditation",
    "/monastery/morning-meditation/9-fifty-replies",
    "/no/such/page/here",
  ];

  it.each(pages)("does on %s what React Router's <Scripts> does, after the first paint", async (url) => {
    const theirs = await render(url, createElement(RouterScripts, { nonce: "n0nce" }));
    const ours = await render(url, createElement(ServerScripts, { nonce: "n0nce" }));
    const t = scriptsOf(theirs.html);
    const o = scriptsOf(ours.html);
    expect(o.context).toBe(t.context);
    // Element for element React Router's markup, but for its preloads and the module script's text:
    // a new element or attribute in a React Router upgrade fails here.
    const moduleText = /(<script[^>]*type="module"[^>]*>)[\s\S]*?(<\/script>)/;
    const markup = (html: string) => html.replace(/<link rel="modulepreload"[^>]*\/>/g, "").replace(moduleText, "$1…$2");
    expect(markup(ours.html)).toBe(markup(theirs.html));
    expect(ours.html).toContain(`<script nonce="n0nce" type="module" async="">`);
    // Nothing in the document itself asks for a module.
    expect(o.preloads).toEqual([]);
    expect(o.module).not.toMatch(/^\s*import\s/m);

    const expected = runModuleScript(t.module);
    await expected.finished;
    const run = runModuleScript(o.module);
    await settle();
    expect(run.done, "nothing is fetched before the first paint").toEqual([]);
    run.paint();
    await run.finished;

    // The same modules on `window` under the same route ids, the same manifest, the entry last.
    expect(run.window).toEqual(expected.window);
    const imports = (log: string[]) => log.filter((line) => line.startsWith("import ")).map((line) => line.slice("import ".length));
    expect(new Set(imports(run.done))).toEqual(new Set(imports(expected.done)));
    expect(imports(run.done).at(-1)).toBe(imports(expected.done).at(-1));
    // Every module React Router would have preloaded is preloaded, each once, before any import.
    const preloads = run.done.filter((line) => line.startsWith("link modulepreload ")).map((line) => line.slice("link modulepreload ".length));
    expect(new Set(preloads)).toEqual(new Set(t.preloads));
    expect(preloads.length).toBe(new Set(preloads).size);
    expect(run.done.slice(0, preloads.length).every((line) => line.startsWith("link "))).toBe(true);
    // The single-fetch data stream is written only after the scripts that read it.
    expect(ours.renderMeta).toEqual({ didRenderScripts: true });
  });

  it("starts at once in a tab nobody sees, when the tab is hidden, on the next frame without paint timing, and after 3 s", async () => {
    const { module } = scriptsOf((await render("/council/12-why-sit", createElement(ServerScripts, {}))).html);
    const entry = "import /assets/entry.client-abc.js";

    const hidden = runModuleScript(module, { paint: "hidden" });
    await hidden.finished;
    expect(hidden.done.at(-1)).toBe(entry);

    // Each way in, alone, with no paint reported: nothing until it happens, then the whole start.
    const ways: [Paint, (run: ReturnType<typeof runModuleScript>) => void][] = [
      ["no paint timing", (run) => run.frame()],
      ["paint timing", (run) => run.listeners.get("visibilitychange")?.()],
      ["paint timing", (run) => run.timers.get(3000)?.()],
    ];
    for (const [paint, happen] of ways) {
      const run = runModuleScript(module, { paint });
      await settle();
      expect(run.done).toEqual([]);
      happen(run);
      await run.finished;
      expect(run.done.at(-1)).toBe(entry);
    }
  });

  it("gives the same markup the second time, from what it kept", async () => {
    const url = "/monastery/morning-meditation/10-another";
    const first = await render(url, createElement(ServerScripts, { nonce: "a" }));
    const again = await render(url, createElement(ServerScripts, { nonce: "a" }));
    expect(again.html).toBe(first.html);
  });

  it("includes the routes of the parent paths and preloads each module once", async () => {
    const { html } = await render("/council/12-why-sit", createElement(ServerScripts, {}));
    const manifestJson = html.match(/window\.__reactRouterManifest = ([\s\S]*?);\n/)![1]!;
    const routes = Object.keys(JSON.parse(manifestJson).routes);
    expect(routes).toEqual(["root", "routes/question", "routes/home", "routes/council"]);
    const run = runModuleScript(scriptsOf(html).module);
    run.paint();
    await run.finished;
    const preloads = run.done.filter((line) => line.startsWith("link "));
    expect(new Set(preloads).size).toBe(preloads.length);
    expect(preloads).toContain("link modulepreload /assets/question-client-loader-abc.js");
    expect(run.done).toContain("import /assets/question-client-loader-abc.js");
  });
});
