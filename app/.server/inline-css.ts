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

/** The stylesheets' texts encoded, once each (the texts are builtStylesheet's, kept for the process). */
const encoded = new Map<string, Buffer>();

/**
 * Writes the stylesheet's text into a rendered page's empty `<style id="site-css">`, from bytes
 * encoded once: the head rendered it empty (`InlineCss.spliced`). A page without that element, or
 * with text in it already, is left as it is.
 */
export function withStylesheet(html: Buffer, css: string): Buffer {
  const open = html.indexOf(STYLE_OPEN);
  if (open === -1) return html;
  const end = html.indexOf(">", open) + 1;
  if (end === 0 || html.indexOf(STYLE_CLOSE, end) !== end) return html;
  let bytes = encoded.get(css);
  if (!bytes) {
    if (encoded.size > 8) encoded.clear();
    encoded.set(css, (bytes = Buffer.from(css)));
  }
  return Buffer.concat([html.subarray(0, end), bytes, html.subarray(end)]);
}

/** SiteStylesheet's element (app/components/layout/inline-css.tsx), its id written first. */
const STYLE_OPEN = Buffer.from('<style id="site-css"');
const STYLE_CLOSE = Buffer.from("</style>");
