import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { precompress } from "./server/static-assets.ts";

// How the browser's JavaScript is grouped into chunks (ADR 0029, ADR 0031). Rolldown otherwise puts
// each set of modules that the same pages share in a chunk of its own, dozens of chunks of 0.2–0.8 KB;
// each is compressed on its own and costs its page about 0.2 KB more than the same code in a bigger
// chunk. Groups gather modules that go together, and only those: a page loads a whole group.
const app = (pattern: string) => new RegExp(`app[\\\\/](${pattern.replaceAll("/", "[\\\\/]")})\\.tsx?$`);

// Loaded by every page: React, React DOM, React Router, the client entry's own imports, what the root
// route (the layout: navigation, footer) imports, and Vite's helper for dynamic imports, which the
// layout uses for the toasts and error screens it loads later (ADR 0031). Only modules the root route
// and the entry need belong here, or every page would load them.
const everyPage = new RegExp(
  /node_modules[\\/](react|react-dom|scheduler|react-router|clsx|class-variance-authority)[\\/]|vite[\\/]preload-helper/.source +
    "|" +
    app(
      "lib/(utils|class-merge)|components/(ui/(button|form-controls|link|icons/(icon|menu|x))|community/avatar|" +
        "layout/(nonce|hydrate-later|route-error-boundary|navigation-bar|footer|toaster|inline-css))",
    ).source,
);

/**
 * Marks React Router's `forwardRef(...)` component definitions as pure, so the bundle drops the ones
 * the site never renders (its <Link> and <NavLink>: the site has its own, ADR 0035). forwardRef only
 * wraps a function in an object; without the annotation every component defined that way stays.
 */
function pureForwardRefs(): Plugin {
  const routerDist = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/].*\.js$/;
  return {
    name: "ipos:pure-forward-refs",
    applyToEnvironment: (environment) => environment.name === "client",
    transform(code, id) {
      if (!routerDist.test(id) || !code.includes("React$1.forwardRef(")) return null;
      const pure = code.replaceAll("= React$1.forwardRef(", "= /* @__PURE__ */ React$1.forwardRef(").replace(/^(Link|NavLink)\.displayName = "\w+";$/gm, "");
      return { code: pure, map: null };
    },
  };
}

/**
 * Writes brotli and gzip copies of the browser's assets beside them once the client build is written;
 * the production server sends those copies instead of compressing each request (ADR 0038).
 */
function precompressAssets(): Plugin {
  return {
    name: "ipos:precompress-assets",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options) {
      if (options.dir) await precompress(path.join(options.dir, "assets"));
    },
  };
}

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  // The server build's entry is our Express app (server/app.ts), which wraps React Router's
  // request handler; server/index.js loads it (ADR 0002).
  environments: {
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
    client: {
      build: {
        rollupOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "core", test: everyPage, priority: 1 },
                // Cards with a member's name, rank and virtues, and the list pages' heading: the pages that
                // list or show posts (21–30 pages). The paths' names ride along: in a chunk of their own
                // they cost each of their ten pages some 100 bytes; here about 50 a page, 23 on the largest.
                {
                  name: "community",
                  test: app("components/(ui/(card|badge)|community/(badges|byline|page-header)|layout/use-viewer)|lib/(ranks|virtues|members|paths)"),
                },
                // What a post's own page (a discussion, a question, a creation) shows around the post.
                { name: "post", test: app("components/community/(member-prose|post-actions)|lib/dates") },
                // The forms' shared field rules and form reader, together: each alone was a chunk of
                // 0.4 KB that the share page loaded beside the other (issue 30 left it at the budget).
                // The Markdown box (issue 32) rides with them: every page with a Markdown box has a form.
                { name: "form-fields", test: app("schemas/(form-data|fields)|components/community/markdown-field") },
                // The icons next to counts (likes, comments, views, answers, members) on cards and posts.
                { name: "count-icons", test: app("components/ui/icons/(heart|message-circle|eye|message-square|users)") },
              ],
            },
          },
        },
      },
    },
  },
  plugins: [tailwindcss(), reactRouter(), pureForwardRefs(), precompressAssets()],
});
