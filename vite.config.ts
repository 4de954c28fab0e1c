import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// Modules every page loads (React, React Router, and what the root route imports). Rolldown would
// otherwise put them in eight chunks, each compressed on its own; in one chunk they are 2.6 KB
// smaller gzip on every page (ADR 0029). Only modules the root route needs belong here: anything
// else would be loaded by pages that do not use it.
const everyPage =
  /node_modules[\\/](react|react-router|clsx|class-variance-authority)[\\/]|app[\\/](lib[\\/](utils|class-merge)|components[\\/](ui[\\/](button|form-controls)|community[\\/]avatar|layout[\\/](nonce|error-screens|route-error-boundary)|ui[\\/]icons[\\/]icon))\.tsx?$/;

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  // The server build's entry is our Express app (server/app.ts), which wraps React Router's
  // request handler; server/index.js loads it (ADR 0002).
  environments: {
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
    client: {
      build: { rollupOptions: { output: { codeSplitting: { groups: [{ name: "core", test: everyPage }] } } } },
    },
  },
  plugins: [tailwindcss(), reactRouter()],
});
