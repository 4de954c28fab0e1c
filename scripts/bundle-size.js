// Prints, for every page of the site, the JavaScript the browser loads before the page is
// interactive (entry, root route and page route with all their static imports), gzip-compressed (and,
// beside it, the bytes sent: the build's brotli copies, ADR 0038),
// and fails when a page exceeds the budget. Run after `npm run build`.
// Budget: issue 2 set 150 KB; issue 13 lowered it to 120 KB (ADR 0029, ADR 0031). Parts of a page
// that it loads after hydration (`hydrateLater`: forms, toasts, error screens) are dynamic imports and
// are not counted: the page is interactive without them.
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";

const BUDGET_KB = Number(process.env.JS_BUDGET_KB ?? 120);
const root = path.resolve(import.meta.dirname, "..");
const serverAssets = path.join(root, "build/server/assets");
const buildFile = fs.readdirSync(serverAssets).find((f) => /^server-build-.*\.js$/.test(f));
if (!buildFile) {
  console.error("No server build found: run `npm run build` first.");
  process.exit(1);
}
const build = await import(pathToFileURL(path.join(serverAssets, buildFile)).href);
const { assets, routes } = build;

const sizes = new Map();
function gzipKb(url) {
  if (!sizes.has(url)) {
    const file = path.join(root, "build/client", url);
    sizes.set(url, gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024);
  }
  return sizes.get(url);
}

/** What the server sends a browser that takes brotli: the build's copy (ADR 0038), else the file. */
function sentKb(url) {
  const file = path.join(root, "build/client", url);
  return fs.statSync(fs.existsSync(`${file}.br`) ? `${file}.br` : file).size / 1024;
}

function fullPath(id) {
  const parts = [];
  for (let r = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined) {
    if (r.path) parts.unshift(r.path);
    else if (r.index) parts.unshift("");
  }
  return "/" + parts.filter(Boolean).join("/");
}

const rows = [];
for (const [id, route] of Object.entries(assets.routes)) {
  if (id === "root") continue;
  const files = new Set([assets.entry.module, ...assets.entry.imports]);
  for (const r of [assets.routes.root, route]) {
    files.add(r.module);
    for (const i of r.imports ?? []) files.add(i);
  }
  const kb = [...files].reduce((sum, f) => sum + gzipKb(f), 0);
  rows.push({ path: fullPath(id), kb, sent: [...files].reduce((sum, f) => sum + sentKb(f), 0) });
}
rows.sort((a, b) => b.kb - a.kb);
const width = Math.max(...rows.map((r) => r.path.length));
console.log(`JavaScript loaded before interactive, gzip level 9 (budget ${BUDGET_KB} KB), and as sent (the build's brotli copies):`);
for (const r of rows) {
  console.log(
    `  ${r.path.padEnd(width)}  ${r.kb.toFixed(1).padStart(6)} KB  (sent ${r.sent.toFixed(1).padStart(5)} KB)${r.kb > BUDGET_KB ? "  OVER BUDGET" : ""}`,
  );
}
const over = rows.filter((r) => r.kb > BUDGET_KB);
if (over.length > 0) {
  console.error(`${over.length} page(s) over the ${BUDGET_KB} KB budget.`);
  process.exit(1);
}
