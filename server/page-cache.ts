import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import type { ServerBuild } from "react-router";
import { currentPageTags, tag, withPageTags, type CachedHitEffect, type PageTags, type PageViewer } from "~/.server/cache/page-tags";
import { contentSecurityPolicy, type SecurityOptions } from "./http";
import { mapRouteHandlers, type RouteHandler, type WrapRouteHandler } from "./route-handlers";

/**
 * The page cache (issue 13, ADR 0026): the HTTP server asks it before Express sees a request. A
 * logged-out reader's GET is answered from memory with precompressed bytes; everything else goes to
 * the app. A page is kept only while nothing it read (its read tags) has been written since its
 * request began; a short TTL is the safety net for writes no tag describes.
 *
 * A signed-in member's pages are kept too, for that member's exact Cookie header only (ADR 0040):
 * besides the page's tags, each reads `tag.viewer` (every write of theirs), and each answer from
 * memory first checks that the session still exists with the same fingerprint.
 */

export interface PageCacheOptions {
  /** The safety net: no entry is served older than this. */
  ttlMs: number;
  /** LRU bound on the bytes kept (all three encodings counted). */
  maxBytes: number;
  /** The largest identity body stored. */
  maxEntryBytes?: number;
  /** How many written tags it remembers before it forgets those no stored page needs (see `forget`). */
  maxWrittenTags?: number;
  now?: () => number;
}

export type Encoding = "br" | "gzip" | "identity";

export interface CachedPage {
  key: string;
  status: number;
  /** Headers to replay, lower-case names; CSP, ETag, Vary and Cache-Control included. */
  headers: Record<string, string>;
  /** Identity always; a member's page is compressed per encoding when first asked for in it. */
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  /** The strong validator of the identity bytes; the compressed variants add a suffix. */
  etag: string;
  reads: string[];
  /** Run on every hit (after the answer is sent): the loader's side effects, such as a view count. */
  onHit: CachedHitEffect[];
  startSeq: number;
  storedAt: number;
  bytes: number;
  /** Set for a member's page: kept for the session it was rendered for only. */
  viewer?: PageViewer;
}

/** How often a read's side effect (a view count) may drop the pages that show it. */
const SOON_WINDOW_MS = 2000;
const SOON_MAX = 10_000;

const ENCODING_SUFFIX: Record<Encoding, string> = { identity: "", gzip: "-gz", br: "-br" };

export class PageCache {
  readonly ttlMs: number;
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  private readonly maxWrittenTags: number;
  private readonly now: () => number;
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, CachedPage>();
  private bytes = 0;
  private seq = 0;
  private siteWrite = 0;
  private readonly lastWrite = new Map<string, number>();
  private readonly listeners: Array<(tags: string[]) => void> = [];
  /** While false (the invalidation bus lost its connection) nothing is served or stored. */
  private trusted = true;

  constructor(options: PageCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxBytes = options.maxBytes;
    this.maxEntryBytes = options.maxEntryBytes ?? 1024 * 1024;
    this.maxWrittenTags = options.maxWrittenTags ?? 50_000;
    this.now = options.now ?? Date.now;
  }

  /** The write sequence now: a request remembers it when it begins. */
  sequence() {
    return this.seq;
  }

  get size() {
    return this.entries.size;
  }

  get storedBytes() {
    return this.bytes;
  }

  /** How many written tags it remembers (bounded by `maxWrittenTags`). */
  get writtenTags() {
    return this.lastWrite.size;
  }

  get enabled() {
    return this.trusted;
  }

  /**
   * Stops serving and storing (false) until told again (true). The invalidation bus says false
   * when it cannot hear other instances' writes; on true it has already bumped `site`.
   */
  setTrusted(trusted: boolean) {
    this.trusted = trusted;
  }

  /** Called with the tags of every local write (the invalidation bus publishes them). */
  onLocalWrite(listener: (tags: string[]) => void) {
    this.listeners.push(listener);
  }

  /**
   * Records a write of `tags`: empty means everything, `tag.nothing` alone means nothing public.
   * `local` writes are also published to the other instances.
   */
  bump(tags: Iterable<string>, { local = true } = {}) {
    const given = [...tags];
    if (PageCache.changesNothing(given)) return;
    const list = given.filter((t) => t !== tag.nothing);
    const seq = ++this.seq;
    const all = list.length === 0 || list.includes(tag.site);
    if (all) {
      this.siteWrite = seq;
      // Nothing older can be valid any more: drop it now rather than on the next lookup.
      this.entries.clear();
      this.bytes = 0;
      this.lastWrite.clear();
    } else {
      for (const t of list) this.lastWrite.set(t, seq);
      if (this.lastWrite.size > this.maxWrittenTags) this.forget();
    }
    if (local) for (const listener of this.listeners) listener(all ? [tag.site] : list);
  }

  /**
   * Every distinct tag written (each discussion, reply author, question…) would otherwise stay in
   * `lastWrite` for the life of the process. A write only matters to pages whose request began
   * before it, so writes no older than the oldest live page are forgotten, and `siteWrite` moves up
   * to that point: a request that began earlier and has not stored yet is refused, as after a
   * site-wide write, instead of being stored without the writes it can no longer be checked against.
   * When that frees too little (an old page pins them), everything is dropped as on a site write.
   */
  private forget() {
    const now = this.now();
    let oldest = this.seq;
    for (const [key, entry] of this.entries) {
      if (now - entry.storedAt >= this.ttlMs) this.delete(key);
      else if (entry.startSeq < oldest) oldest = entry.startSeq;
    }
    let kept = 0;
    for (const written of this.lastWrite.values()) if (written > oldest) kept++;
    const cut = kept > this.maxWrittenTags / 2 ? this.seq : oldest;
    if (cut === this.seq) this.clear();
    for (const [t, written] of this.lastWrite) if (written <= cut) this.lastWrite.delete(t);
    this.siteWrite = Math.max(this.siteWrite, cut);
  }

  private readonly soon = new Map<string, { at: number; trailing: boolean }>();

  /**
   * A throttled bump for changes made by reads (a question's view count): the first bumps at once,
   * later ones within `windowMs` of it are folded into one bump at the window's end. A page that
   * shows a count stays cached between counts instead of being dropped by every new visitor.
   */
  bumpSoon(tags: string[], windowMs = SOON_WINDOW_MS) {
    const now = this.now();
    const due: string[] = [];
    for (const t of tags) {
      const last = this.soon.get(t);
      if (!last || now - last.at >= windowMs) {
        this.soon.set(t, { at: now, trailing: false });
        due.push(t);
      } else if (!last.trailing) {
        last.trailing = true;
        const timer = setTimeout(() => {
          this.soon.set(t, { at: this.now(), trailing: false });
          this.bump([t]);
        }, windowMs - (now - last.at));
        timer.unref();
      }
    }
    if (this.soon.size > SOON_MAX) for (const [t, v] of this.soon) if (!v.trailing && now - v.at >= windowMs) this.soon.delete(t);
    if (due.length > 0) this.bump(due);
  }

  /** True when the local write said it changed nothing public (only `tag.nothing`). */
  static changesNothing(tags: Iterable<string>) {
    const list = [...tags];
    return list.length > 0 && list.every((t) => t === tag.nothing);
  }

  isValid(entry: CachedPage) {
    const now = this.now();
    if (now - entry.storedAt >= this.ttlMs) return false;
    if (entry.viewer && now >= entry.viewer.until) return false;
    if (this.siteWrite > entry.startSeq) return false;
    for (const t of entry.reads) {
      if (t === tag.site) continue;
      if ((this.lastWrite.get(t) ?? 0) > entry.startSeq) return false;
    }
    return true;
  }

  get(key: string): CachedPage | undefined {
    if (!this.trusted) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (!this.isValid(entry)) {
      this.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * Stores a page read by a request that began at `startSeq`, unless a write it read came in
   * meanwhile (then it is already stale) or it is too big. Returns the entry when stored.
   */
  set(input: {
    key: string;
    status: number;
    headers: Record<string, string>;
    body: Buffer;
    reads: Iterable<string>;
    onHit?: CachedHitEffect[];
    startSeq: number;
    viewer?: PageViewer;
  }): CachedPage | undefined {
    if (!this.trusted) return undefined;
    if (input.body.length > this.maxEntryBytes) return undefined;
    const reads = [...new Set(input.reads)];
    if (input.viewer) reads.push(tag.viewer(input.viewer.memberId));
    const identity = input.body;
    // A visitor's page is read by many: compressed once, at the best ratio that keeps a miss quick.
    // A member's page is read by one, often only by its own reloads: each encoding is made when
    // first needed, as quickly as compression() would have (see `body`).
    const bodies: CachedPage["bodies"] = input.viewer
      ? { identity }
      : {
          identity,
          br: brotliCompressSync(identity, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
            },
          }),
          gzip: gzipSync(identity, { level: 9 }),
        };
    const etag = createHash("sha256").update(identity).digest("base64url").slice(0, 27);
    const entry: CachedPage = {
      key: input.key,
      status: input.status,
      headers: input.headers,
      bodies,
      etag,
      reads,
      onHit: input.onHit ?? [],
      startSeq: input.startSeq,
      storedAt: this.now(),
      bytes: identity.length + (bodies.br?.length ?? 0) + (bodies.gzip?.length ?? 0) + input.key.length,
      viewer: input.viewer,
    };
    if (!this.isValid(entry)) return undefined;
    if (entry.bytes > this.maxBytes) return undefined;
    this.delete(input.key);
    this.entries.set(input.key, entry);
    this.bytes += entry.bytes;
    this.evict();
    return entry;
  }

  /** Drops the least recently used pages until the bytes kept are within bounds. */
  private evict() {
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.bytes;
    }
  }

  /** The entry's bytes in this encoding, made now if it has none yet (a member's page). */
  body(entry: CachedPage, encoding: Encoding): Buffer {
    const kept = entry.bodies[encoding];
    if (kept) return kept;
    const made =
      encoding === "br"
        ? brotliCompressSync(entry.bodies.identity, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: entry.bodies.identity.length,
            },
          })
        : gzipSync(entry.bodies.identity, { level: 6 });
    entry.bodies[encoding] = made;
    // Counted only while the entry is still the one kept under its key.
    if (this.entries.get(entry.key) === entry) {
      entry.bytes += made.length;
      this.bytes += made.length;
      this.evict();
    }
    return made;
  }

  /** Drops this entry if it is still the one kept under its key (not a newer page's). */
  dropEntry(entry: CachedPage) {
    if (this.entries.get(entry.key) === entry) this.delete(entry.key);
  }

  delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }
}

/** The client's preferred stored variant: br, then gzip, then identity (q=0 refuses one). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (ok("br")) return "br";
  if (ok("gzip")) return "gzip";
  return "identity";
}

export function etagFor(entry: CachedPage, encoding: Encoding) {
  return `"${entry.etag}${ENCODING_SUFFIX[encoding]}"`;
}

/** If-None-Match matches any variant of the page: the content is the same bytes. */
export function notModified(entry: CachedPage, ifNoneMatch: string | undefined) {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch
    .split(",")
    .map((v) => v.trim().replace(/^W\//, ""))
    .some((v) => v === `"${entry.etag}"` || v === `"${entry.etag}-gz"` || v === `"${entry.etag}-br"`);
}

/** Writes a stored page (or a 304) for this request. */
export function sendCached(req: IncomingMessage, res: ServerResponse, cache: PageCache, entry: CachedPage, state: "hit" | "miss") {
  const encoding = pickEncoding(header(req, "accept-encoding"));
  const etag = etagFor(entry, encoding);
  res.setHeader("X-Request-Id", randomUUID());
  res.setHeader("X-Page-Cache", state);
  res.setHeader("ETag", etag);
  res.setHeader("Vary", "Accept-Encoding");
  // No shared proxy may keep a page; browsers keep it but must revalidate (a 304 is cheap).
  res.setHeader("Cache-Control", "private, no-cache");
  if (notModified(entry, header(req, "if-none-match"))) {
    res.statusCode = 304;
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
  const body = cache.body(entry, encoding);
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.statusCode = entry.status;
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Paths never cached: health checks and files (served with their own caching by express.static). */
const NEVER = /^\/(healthz|media\/|assets\/|favicon)/;

/**
 * Cookies no page reads. The trusted device's (ADR 0042) outlives sign-out on purpose: were it a
 * member's cookie, a browser that had ever signed in would never be served from memory again.
 */
export const INERT_COOKIES: ReadonlySet<string> = new Set(["ipos_device"]);

/** Whether every cookie in the header is one no page reads (an empty header is not). */
function onlyInertCookies(header: string) {
  let any = false;
  for (const pair of header.split(";")) {
    if (pair.trim() === "") continue;
    const equals = pair.indexOf("=");
    if (!INERT_COOKIES.has((equals === -1 ? pair : pair.slice(0, equals)).trim())) return false;
    any = true;
  }
  return any;
}

/**
 * A plain GET or HEAD of a page: a logged-out reader's ("visitor": no Cookie header at all, or only
 * inert cookies) or one with cookies ("member"), whose page is kept only under its exact Cookie
 * header and only when it was rendered for a settled session (a flash cookie, a refresh due or no
 * session: never kept).
 */
export function eligibility(req: IncomingMessage): "visitor" | "member" | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  if (req.headers.authorization !== undefined) return null;
  const url = req.url ?? "/";
  if (!url.startsWith("/") || NEVER.test(url)) return null;
  const cookie = req.headers.cookie;
  return cookie === undefined || onlyInertCookies(cookie) ? "visitor" : "member";
}

/**
 * A member's page is kept under the address and the whole Cookie header: another cookie, even of
 * the same member, is another key. A visitor's key is the address alone, which starts with "/".
 */
export function memberKey(url: string, cookie: string) {
  return `member ${url}\n${cookie}`;
}

/** What the front tells the app about a request it could not answer (on the request object). */
const CANDIDATE = Symbol("page-cache-candidate");
interface Candidate {
  key: string;
  startSeq: number;
  member: boolean;
}
type WithCandidate = IncomingMessage & { [CANDIDATE]?: Candidate };

export interface FrontOptions {
  cache: PageCache | undefined;
  app: (req: IncomingMessage, res: ServerResponse) => void;
  draining?: () => boolean;
  /** The client's address as the app sees it (trust proxy), for the side effects of a hit. */
  clientIp?: (req: IncomingMessage) => string;
  /** Whether a member's kept page may be answered: their session still as it was (ADR 0040). */
  verifyViewer?: (viewer: PageViewer) => Promise<boolean>;
  onError?: (error: unknown) => void;
}

/**
 * The node:http handler: serves a hit straight from memory, otherwise hands the request to the app
 * (marking an eligible GET so the app's capture middleware may store its response).
 */
export function pageCacheFront({
  cache,
  app,
  draining = () => false,
  clientIp = (req) => req.socket.remoteAddress ?? "unknown",
  verifyViewer,
  onError,
}: FrontOptions) {
  const miss = (req: IncomingMessage, res: ServerResponse, cache: PageCache, key: string, member: boolean) => {
    res.setHeader("X-Page-Cache", "miss");
    if (req.method === "GET") (req as WithCandidate)[CANDIDATE] = { key, startSeq: cache.sequence(), member };
    app(req, res);
  };
  /** A member's kept page, once their session is read and found as it was; else the app. */
  const answerMember = async (req: IncomingMessage, res: ServerResponse, cache: PageCache, key: string, entry: CachedPage, viewer: PageViewer) => {
    let valid = false;
    try {
      valid = await verifyViewer!(viewer);
    } catch (error) {
      onError?.(error);
    }
    try {
      // A write, a newer page or a lost invalidation bus may have come while the session was read.
      if (valid && cache.get(key) === entry) return sendCached(req, res, cache, entry, "hit");
      cache.dropEntry(entry);
      miss(req, res, cache, key, true);
    } catch (error) {
      onError?.(error);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      } else res.destroy();
    }
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    // While draining, the app answers everything (each response then closes its connection).
    const kind = cache && cache.enabled && !draining() ? eligibility(req) : null;
    if (!cache || !kind || (kind === "member" && !verifyViewer)) {
      if (cache) res.setHeader("X-Page-Cache", "bypass");
      return app(req, res);
    }
    const url = req.url ?? "/";
    if (kind === "member") {
      const key = memberKey(url, req.headers.cookie!);
      const entry = cache.get(key);
      if (!entry?.viewer) return miss(req, res, cache, key, true);
      void answerMember(req, res, cache, key, entry, entry.viewer);
      return;
    }
    const key = url;
    const entry = cache.get(key);
    if (entry) {
      sendCached(req, res, cache, entry, "hit");
      if (entry.onHit.length > 0 && req.method === "GET") {
        const hit = { clientIp: clientIp(req), invalidate: (list: string[]) => cache.bumpSoon(list) };
        for (const effect of entry.onHit) {
          try {
            effect(hit);
          } catch (error) {
            onError?.(error);
          }
        }
      }
      return;
    }
    miss(req, res, cache, key, false);
  };
}

/** Whether the front marked this request as one whose response may be stored. */
export function isCacheCandidate(req: IncomingMessage) {
  return (req as WithCandidate)[CANDIDATE] !== undefined;
}

/**
 * Near the top of the Express app: gives every request its read and write tags, and after a
 * successful write (any method but GET/HEAD, status < 400, redirects included) bumps what it wrote.
 * The bump comes when the response head is written: the action (and its transaction) has finished
 * by then, and no byte of the answer has left, so a client that follows the redirect at once can
 * never be served the page from before its own write.
 *
 * A client that goes away first gets no head. React Router then stops waiting for the action, but
 * the action goes on, and its transaction may commit well after the disconnect: a page rendered in
 * between would read the old rows and be kept until the TTL. So the close bumps only what the write
 * has named so far (a write already committed), never everything: anyone may post anything and go
 * away at once, and most such posts are refused or never reach an action. Each time the request's
 * route handlers have all ended (`countWriteHandlers`), the action's own outcome decides, as the
 * status would have: refused (it threw, or answered 400 or more), nothing; never run, only what
 * was named; done, everything it wrote, or everything when it named nothing. Handlers that ended
 * before the close are judged at the close.
 */
export function pageTagsMiddleware(cache: PageCache | undefined) {
  return (req: Request, res: Response, next: NextFunction) => {
    const tags: PageTags = { reads: new Set(), writes: new Set(), invalidate: cache ? (list) => cache.bumpSoon(list) : undefined };
    if (cache && req.method !== "GET" && req.method !== "HEAD") {
      const handlers: NonNullable<PageTags["handlers"]> = { running: 0, ran: false };
      tags.handlers = handlers;
      const bump = (written: string[]) => {
        // The member's own tag comes on top (ADR 0040).
        if (tags.viewerWrites) written.push(...tags.viewerWrites);
        // An empty list would mean everything to the cache.
        if (written.length === 0 || PageCache.changesNothing(written)) return;
        cache.bump(written);
      };
      // A successful write: naming nothing still means everything.
      const bumpWrites = () => bump(tags.writes.size === 0 ? [tag.site] : [...tags.writes]);
      // A write whose outcome is not known: only what it named, which is never wrong to drop.
      const bumpNamed = () => bump([...tags.writes]);
      const settle = () => {
        if (handlers.action === "done") bumpWrites();
        else if (handlers.action === undefined) bumpNamed();
      };
      let answered = false;
      const answer = () => {
        if (answered) return;
        answered = true;
        // A refused write changed nothing.
        if (res.statusCode >= 400) return;
        bumpWrites();
        // Whatever ends after the answer (an action the client left, or one begun after it left)
        // may have committed since: bump again then.
        handlers.idle = bumpWrites;
      };
      const close = () => {
        if (answered) return;
        answered = true;
        // Without a head the status is still 200 unless set: the write may have committed, or may yet.
        if (res.statusCode >= 400) return;
        if (handlers.ran && handlers.running === 0) settle();
        else bumpNamed();
        handlers.idle = settle;
      };
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: unknown[]) {
        if (typeof args[0] === "number") this.statusCode = args[0];
        answer();
        return (writeHead as (...a: unknown[]) => Response).apply(this, args);
      } as Response["writeHead"];
      res.once("close", close);
    }
    withPageTags(tags, next);
  };
}

/** The status an action answered or threw with, when it says one: a Response or `data(…, { status })`. */
function statusOf(value: unknown): number | undefined {
  if (value instanceof globalThis.Response) return value.status;
  // React Router's DataWithResponseInit, as its own `isDataWithResponseInit` tells it.
  if (typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit") {
    return (value as { init?: { status?: number } | null }).init?.status;
  }
  return undefined;
}

/** Whether an action's return or throw means it refused the write (see `PageTags.handlers`). */
function refused(outcome: { value: unknown } | { error: unknown }) {
  const status = statusOf("value" in outcome ? outcome.value : outcome.error);
  // A thrown redirect is how an action says it is done; anything else thrown is a failure.
  if ("error" in outcome) return status === undefined || status < 300 || status >= 400;
  return status !== undefined && status >= 400;
}

/** Counts a route handler in its write request's `handlers` while it runs (see `pageTagsMiddleware`). */
const counted: WrapRouteHandler = (handler, kind) => {
  const call = handler as (...args: unknown[]) => unknown;
  const run = async (handlers: NonNullable<PageTags["handlers"]>, args: unknown[]) => {
    handlers.running++;
    handlers.ran = true;
    try {
      const value = await call(...args);
      if (kind === "action") handlers.action = refused({ value }) ? "refused" : "done";
      return value;
    } catch (error) {
      if (kind === "action") handlers.action = refused({ error }) ? "refused" : "done";
      throw error;
    } finally {
      if (--handlers.running === 0) handlers.idle?.();
    }
  };
  // A read (no `handlers`) calls the handler as it was, without another promise on its way.
  const wrapped = (...args: unknown[]) => {
    const handlers = currentPageTags()?.handlers;
    return handlers ? run(handlers, args) : call(...args);
  };
  return Object.assign(wrapped, handler) as unknown as RouteHandler;
};

/**
 * The same server build with every route's loader, action and middleware counted while it runs in
 * a write request, and the action's outcome kept. React Router races each handler against the
 * request's abort signal, so its own answer says nothing about when the handler ends; the
 * handler's own promise does.
 */
export function countWriteHandlers(build: ServerBuild): ServerBuild {
  return mapRouteHandlers(build, counted);
}

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
 * or lets it through unchanged (compression() then compresses it as usual). A marked request is
 * rendered with an empty nonce, so its CSP names its inline scripts by their hashes instead.
 */
export function pageCapture(cache: PageCache | undefined, security: SecurityOptions) {
  return (req: Request, res: Response, next: NextFunction) => {
    const candidate = cache ? (req as unknown as WithCandidate)[CANDIDATE] : undefined;
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
      const storable =
        res.statusCode === 200 &&
        STORABLE_TYPE.test(type) &&
        res.getHeader("set-cookie") === undefined &&
        tags !== undefined &&
        tags.reads.size > 0 &&
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
            reads: tags!.reads,
            onHit: tags!.onHit,
            startSeq: candidate.startSeq,
            viewer: candidate.member ? tags!.viewer : undefined,
          })
        : undefined;
      if (entry) {
        // compression() leaves a body alone that already says how it is encoded.
        sendCached(req, res, cache, entry, "miss");
        return res;
      }
      const cb = [chunk, encoding, callback].find((a) => typeof a === "function") as (() => void) | undefined;
      return (original.end as (this: Response, chunk: Buffer, cb?: () => void) => Response).call(res, body, cb);
    } as Response["end"];
    next();
  };
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

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** 'sha256-…' of every inline script in a page (the browser hashes the text exactly as sent). */
export function inlineScriptHashes(html: Buffer | string): string[] {
  const text = typeof html === "string" ? html : html.toString("utf8");
  const hashes = new Set<string>();
  for (const match of text.matchAll(INLINE_SCRIPT)) {
    const [, attributes, content] = match;
    if (/\bsrc\s*=/i.test(attributes!)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(content!, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
