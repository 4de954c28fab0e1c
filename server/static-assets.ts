import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { RequestHandler } from "express";
import { chooseEncoding, encodedTag, notModifiedFor, type Encoding } from "./http-encoding";

/**
 * The build's hashed assets (scripts, the stylesheet, icons) compressed once, at build time, with
 * brotli at its best quality and gzip at level 9, and sent as stored (ADR 0038). Compressing per
 * request (the compression middleware: gzip level 6) cost the server about 60 ms of CPU for the
 * core chunk alone, each time a new reader's browser fetched it, and sent 113 KB where brotli 11
 * sends 98 KB.
 */

/** What is worth compressing: text formats. Images and fonts come compressed. */
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `<file>.br` and `<file>.gz` beside each compressible file of `dir` (a build's assets), each
 * only when it is smaller than the file.
 */
export async function precompress(dir: string): Promise<void> {
  const names = fs.readdirSync(dir).filter((name) => compressible(name) && fs.statSync(path.join(dir, name)).size >= MIN_BYTES);
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const bytes = fs.readFileSync(file);
      const copies = await Promise.all([
        brotli(bytes, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      ENCODINGS.forEach(({ suffix }, i) => {
        const copy = copies[i]!;
        if (copy.length < bytes.length) fs.writeFileSync(file + suffix, copy);
      });
    }),
  );
}

function compressible(name: string) {
  return Object.hasOwn(TYPES, path.extname(name)) && !ENCODINGS.some(({ suffix }) => name.endsWith(suffix));
}

interface Asset {
  type: string;
  tag: string;
  bodies: Partial<Record<Encoding, Buffer>>;
}

/**
 * Serves the compressed copies `precompress` wrote, held in memory from the start (a build's assets
 * are well under a megabyte compressed): the variant the browser weighs highest (`chooseEncoding`,
 * shared with the page cache), brotli first at equal weight. The file names carry their content's hash, so browsers keep them for a year. Anything
 * else (a name it does not hold, a range request) goes on to `next`, the plain static files.
 */
export function precompressedAssets(dir: string, { maxAgeSeconds = 31_536_000 } = {}): RequestHandler {
  const assets = new Map<string, Asset>();
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!compressible(name)) continue;
    const bodies: Asset["bodies"] = {};
    for (const { name: encoding, suffix } of ENCODINGS) {
      const copy = path.join(dir, name + suffix);
      if (fs.existsSync(copy)) bodies[encoding] = fs.readFileSync(copy);
    }
    // Without a compressed copy (a build made before this step) the compression middleware does it.
    if (!bodies.br && !bodies.gzip) continue;
    bodies.identity = fs.readFileSync(path.join(dir, name));
    const tag = createHash("sha256").update(bodies.identity).digest("base64url").slice(0, 22);
    assets.set(`/${name}`, { type: TYPES[path.extname(name)]!, tag, bodies });
  }
  const cacheControl = `public, max-age=${maxAgeSeconds}, immutable`;

  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const asset = assets.get(req.path);
    if (!asset || req.headers.range !== undefined) return next();
    const encoding = chooseEncoding(req.headers["accept-encoding"], asset.bodies);
    if (!encoding) return void res.status(406).end();
    const body = asset.bodies[encoding]!;
    // One tag per encoding: the bytes differ, and a cache may hold each.
    const etag = encodedTag(asset.tag, encoding);
    // compression(), mounted before this, would encode the file itself once more (deflate, or gzip
    // where only a brotli copy is held) under the same strong tag; no-transform keeps it as it is.
    res.setHeader("Cache-Control", encoding === "identity" ? `${cacheControl}, no-transform` : cacheControl);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("ETag", etag);
    if (notModifiedFor(req.headers["if-none-match"], etag)) return void res.status(304).end();
    res.setHeader("Content-Type", asset.type);
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.status(200).end(req.method === "HEAD" ? undefined : body);
  };
}
