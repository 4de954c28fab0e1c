import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  // The server build's entry is our Express app (server/app.ts), which wraps React Router's
  // request handler; server/index.js loads it (ADR 0002).
  environments: {
    client: {
      build: {
        // No helper for preloading lazy chunks (1.3 KB on every page): the only lazy chunks are form
        // schemas, fetched after hydration (ADR 0029).
        modulePreload: false,
      },
    },
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
  },
  plugins: [tailwindcss(), reactRouter()],
});
