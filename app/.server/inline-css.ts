import fs from "node:fs";
import path from "node:path";

const cache = new Map<string, string | null>();

/**
 * The text of a built stylesheet (`/assets/app-….css`), read once from build/client (where
 * server/app.ts serves it from); null in development, where Vite serves the stylesheet itself.
 */
export function builtStylesheet(url: string): string | null {
  if (!cache.has(url)) {
    let text: string | null = null;
    if (url.startsWith("/assets/")) {
      try {
        text = fs.readFileSync(path.resolve("build/client", url.slice(1)), "utf8");
      } catch {
        text = null;
      }
    }
    cache.set(url, text);
  }
  return cache.get(url) ?? null;
}
