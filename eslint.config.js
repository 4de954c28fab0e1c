// Lint rules, and the layers of ADR 0016 as import boundaries. The packages come from tools/lint
// (installed by `npm install` through the postinstall script; see ADR 0016 for why apart).
import { readdirSync } from "node:fs";
import { createTypeScriptImportResolver, defineConfig, globals, importX, js, reactHooks, tseslint } from "./tools/lint/plugins.js";
import { kebabCaseFileNames } from "./tools/lint/file-names.js";

const features = readdirSync(new URL("./app/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// Server-only code: everything under app/.server and every *.server.ts(x) module.
const SERVER_ONLY = ["app/.server/**", "app/**/*.server.ts", "app/**/*.server.tsx"];

// The route modules React Router loads: app/routes and the root route.
const ROUTE_MODULES = ["./app/routes", "./app/root.tsx"];

/** import-x/no-restricted-paths zones: `target` files may not import from `from`. */
const zones = [
  // The browser never receives server code: only route modules (React Router strips loader- and
  // action-only imports from the client build), server/ and other server-only modules import it.
  ...["./app/components", "./app/features", "./app/lib", "./app/schemas"].map((target) => ({
    target,
    from: SERVER_ONLY,
    message: "Server-only code (app/.server, *.server.ts) is imported only by route modules, server/ and other server-only modules.",
  })),
  // Layers point downward: routes → features/components → (lib, schemas); domain → db.
  {
    target: ["./app/components", "./app/features", "./app/lib", "./app/schemas", "./app/.server"],
    from: "./app/routes",
    message: "Route modules are the top layer; nothing imports them.",
  },
  {
    target: ["./app/components", "./app/lib", "./app/schemas", "./app/.server"],
    from: "./app/features",
    message: "Features sit above components, lib and the server; those do not import a feature.",
  },
  {
    target: ["./app/lib", "./app/schemas", "./app/.server"],
    from: "./app/components",
    message: "Components sit above lib, schemas and the server; those do not import a component.",
  },
  {
    target: "./app/.server/db",
    from: ["./app/.server/domain", "./app/.server/services.ts"],
    message: "The database layer sits below the domain; it does not import domain code.",
  },
  // Thin routes (issue 27): a route module asks the domain, never a repository (queries without the
  // rules, tags or transactions of a service or read model) ...
  {
    target: ROUTE_MODULES,
    from: "./app/.server/**/*-repository.ts",
    message: "A route module does not import a repository: go through the domain's read model or service, which also names the page-cache tags.",
  },
  // ... and never says what a page read or a request wrote: the read models and services that run the
  // queries do (ADR 0051), so a route cannot forget a tag its query needs. (Features, components and
  // lib cannot import server code at all.)
  {
    target: ROUTE_MODULES,
    from: "./app/.server/cache/page-tags.ts",
    message: "Page-cache tags (readsFrom, wrote, changedByRead, …) are named by read models and services in app/.server, not by route modules.",
  },
  // No feature imports another feature: what two features share moves to components or lib.
  ...features.map((name) => ({
    target: `./app/features/${name}`,
    from: "./app/features",
    except: [`./${name}`],
    message: "A feature folder does not import another feature folder; move what they share to app/components or app/lib.",
  })),
  // The site and its migrations are composed in server/ (and scripts, tests), never by each other.
  { target: "./app", from: "./database", message: "app/ does not import database/; server/ composes the two." },
  { target: "./database", from: "./app", message: "database/ does not import app/: migrations are frozen and stand alone." },
];

export default defineConfig(
  { ignores: ["build/", ".react-router/", "data/", "public/", "test-results/", "playwright-report/", "screenshots/", "tools/lint/node_modules/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat["recommended-latest"],
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "import-x": importX, ipos: { rules: { "kebab-case-file-names": kebabCaseFileNames } } },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
      // no-cycle reads the modules an import leads to with this parser; without it a TypeScript
      // module cannot be read and no cycle through it is ever found.
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones }],
      // An import cycle makes a module's value undefined while the cycle loads, and ties two layers.
      "import-x/no-cycle": "error",
      "ipos/kebab-case-file-names": "error",
      // A leading underscore marks a parameter or binding kept on purpose (an interface's shape).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // Migrations and the engine layer work on a database whose shape they do not know: `Kysely<any>`
    // is the project's rule there (migrations are frozen and never import the app's schema).
    files: ["database/**", "app/.server/db/**", "tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Playwright fixtures receive a callback named `use`; it is not React's `use` hook.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
);
