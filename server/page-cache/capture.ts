import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { currentPageTags, tag, type PageTags } from "~/.server/cache/page-tags";
import { contentSecurityPolicy, type SecurityOptions } from "../http";
import { candidateOf, pickEncoding, sendCached } from "./front";
import type { CacheAudit } from "./audit";
import { quickCompress, type PageCache } from "./store";

/** Response types the cache keeps: documents and React Router's single-fetch data. */
const STORABLE_TYPE = /^(text\/html|text\/x-script)\b/i;

/** Headers never replayed from a stored response: they are per response or set by sendCached. */
const NOT_REPLAYED = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "etag",
  "vary",
  "cache-control",
  "x-request-id",
  "x-page-cache",
  "set-cookie",
]);

/**
 * After compression(): for a request the front marked, holds the whole identity body back, then
 * either stores it and answers from the entry (precompressed, with an ETag and a hash-based CSP),
 * or lets it through, compressed at once (`encodedAtOnce`) where compression() would. A marked request is
 * rendered with an empty nonce, so its CSP names its inline scripts by their hashes instead.
 */
export function pageCapture(cache: PageCache | undefined, security: SecurityOptions, audit?: CacheAudit) {
  return (req: Request, res: Response, next: NextFunction) => {
    const candidate = cache ? candidateOf(req) : undefined;
    if (!cache || !candidate) return next();
    res.locals.nonce = "";
    const chunks: Buffer[] = [];
    let size = 0;
    const original = { writeHead: res.writeHead, write: res.write, end: res.end };
    let headArgs: unknown[] | undefined;

    res.writeHead = function (this: Response, ...args: unknown[]) {
      headArgs = args;
      return this;
    } as Response["writeHead"];
    res.write = function (this: Response, chunk: unknown, encoding?: unknown, callback?: unknown) {
      if (chunk) {
        const buffer = toBuffer(chunk, encoding);
        chunks.push(buffer);
        size += buffer.length;
      }
      const cb = typeof encoding === "function" ? encoding : callback;
      if (typeof cb === "function") queueMicrotask(() => (cb as () => void)());
      return true;
    } as Response["write"];
    res.end = function (this: Response, chunk?: unknown, encoding?: unknown, callback?: unknown) {
      if (chunk && typeof chunk !== "function") {
        const buffer = toBuffer(chunk, encoding);
        chunks.push(buffer);
        size += buffer.length;
      }
      res.writeHead = original.writeHead;
      res.write = original.write;
      res.end = original.end;
      if (headArgs) applyHead(res, headArgs);
      const body = Buffer.concat(chunks, size);
      const type = String(res.getHeader("content-type") ?? "");
      if (/^text\/html/i.test(type)) {
        res.setHeader("Content-Security-Policy", contentSecurityPolicy({ ...security, scriptHashes: inlineScriptHashes(body) }));
      }
      const tags = currentPageTags();
      const reads = tags && keptReads(tags);
      const storable =
        res.statusCode === 200 &&
        STORABLE_TYPE.test(type) &&
        res.getHeader("set-cookie") === undefined &&
        tags !== undefined &&
        reads !== undefined &&
        !res.getHeader("content-encoding") &&
        // A member's page only for the settled session it was rendered for, and never one whose
        // hits would have to repeat a side effect (a question's view): that is counted per member.
        (candidate.member ? tags.viewer !== undefined && !tags.onHit?.length : tags.viewer === undefined);
      const entry = storable
        ? cache.set({
            key: candidate.key,
            status: 200,
            headers: replayable(res),
            body,
            reads: reads!,
            onHit: tags!.onHit,
            startSeq: candidate.startSeq,
            viewer: candidate.member ? tags!.viewer : undefined,
            route: tags!.route?.id,
          })
        : undefined;
      if (entry) {
        audit?.pageKept(req, tags!, entry.reads);
        // compression() leaves a body alone that already says how it is encoded.
        sendCached(req, res, cache, entry, "miss");
        return res;
      }
      const cb = [chunk, encoding, callback].find((a) => typeof a === "function") as (() => void) | undefined;
      return (original.end as (this: Response, chunk: Buffer, cb?: () => void) => Response).call(res, encodedAtOnce(req, res, body, type) ?? body, cb);
    } as Response["end"];
    next();
  };
}

/** Below this, compression() would send the bytes as they are too. */
const COMPRESS_FROM = 1024;

/**
 * A page held back here and not kept (a member's page, a 404) is compressed at once, at the quick
 * level a miss is answered at, instead of by compression()'s stream: that sends the body to zlib's
 * thread pool and waits at least two turns of the event loop for it, and under load each turn is a
 * queue: a member's discussion took three times a visitor's miss at p90 (issue 29). Brotli at
 * quality 1 costs about 0.8 ms for 100 KB, less than the stream's quality 4 on the pool. Undefined:
 * the body goes as it is (too small, HEAD, already encoded, or nothing the client accepts).
 */
function encodedAtOnce(req: Request, res: Response, body: Buffer, type: string): Buffer | undefined {
  if (req.method === "HEAD" || body.length < COMPRESS_FROM || res.statusCode === 204 || res.statusCode === 304) return undefined;
  if (!STORABLE_TYPE.test(type) || res.getHeader("content-encoding") !== undefined) return undefined;
  if (/(^|,)\s*no-transform\s*(,|$)/i.test(String(res.getHeader("cache-control") ?? ""))) return undefined;
  res.vary("Accept-Encoding");
  const encoding = pickEncoding(req.headers["accept-encoding"]);
  if (encoding === "identity") return undefined;
  const encoded = quickCompress(body, encoding);
  // compression() leaves a body alone that already says how it is encoded.
  res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", encoded.length);
  return encoded;
}

/**
 * What a page is kept under, by its route's policy (route-policies.ts): "tags", what its read models
 * named (a page that named nothing is never kept); "static", `site` alone, whatever the loaders
 * named (only a site-wide write drops it). Never kept: "never", a route missing from the table, or a
 * response no route gave.
 */
function keptReads(tags: PageTags): Iterable<string> | undefined {
  const policy = tags.route?.policy;
  if (policy === "static") return [tag.site];
  if (policy === "tags" && tags.reads.size > 0) return tags.reads;
  return undefined;
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
}

/** Folds writeHead's status and headers into the response, as writeHead itself would. */
function applyHead(res: Response, args: unknown[]) {
  const [status, second, third] = args;
  if (typeof status === "number") res.statusCode = status;
  const headers = typeof second === "string" ? third : second;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(String(headers[i]), headers[i + 1] as string);
  } else if (headers && typeof headers === "object") {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value as string);
  }
}

function replayable(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || NOT_REPLAYED.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return headers;
}

const SCRIPT_OPEN = Buffer.from("<script");
const SCRIPT_CLOSE = Buffer.from("</script>");

/**
 * 'sha256-…' of every inline script in a page (the browser hashes the text exactly as sent). Read
 * from the bytes as React wrote them (lower-case tags): decoding a whole page to find its few
 * scripts cost more than hashing them. A script written otherwise gets no hash, and does not run.
 */
export function inlineScriptHashes(html: Buffer | string): string[] {
  const bytes = typeof html === "string" ? Buffer.from(html) : html;
  const hashes = new Set<string>();
  for (let at = bytes.indexOf(SCRIPT_OPEN); at !== -1; at = bytes.indexOf(SCRIPT_OPEN, at + 1)) {
    const nameEnd = at + SCRIPT_OPEN.length;
    // `<scripts>` or `<script-x>` is no script element.
    if (!/[\s>/]/.test(String.fromCharCode(bytes[nameEnd] ?? 0))) continue;
    const openEnd = bytes.indexOf(">", nameEnd);
    if (openEnd === -1) break;
    const close = bytes.indexOf(SCRIPT_CLOSE, openEnd);
    if (close === -1) break;
    const attributes = bytes.toString("latin1", nameEnd, openEnd);
    const content = bytes.subarray(openEnd + 1, close);
    at = close;
    if (/\bsrc\s*=/i.test(attributes)) continue;
    // A data block (JSON-LD) is never run, so it needs no permission to run.
    if (/\btype\s*=\s*["']?application\/ld\+json/i.test(attributes)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(content).digest("base64")}'`);
  }
  return [...hashes];
}
