import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PageViewer } from "~/.server/cache/page-tags";
import { chooseEncoding, encodedTag, notModifiedFor, type Encoding } from "../http-encoding";
import type { CachedPage, PageCache } from "./store";
import { nameRoute } from "../route-names";

/** The stored variant for this client (one parser with the assets', server/http-encoding.ts). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  // Every page is held in all three; a client refusing them all still gets the bytes themselves.
  return chooseEncoding(acceptEncoding, { br: true, gzip: true, identity: true }) ?? "identity";
}

export function etagFor(entry: CachedPage, encoding: Encoding) {
  return encodedTag(entry.etag, encoding);
}

/** If-None-Match matches any variant of the page: the content is the same bytes. */
export function notModified(entry: CachedPage, ifNoneMatch: string | undefined) {
  return notModifiedFor(ifNoneMatch, [etagFor(entry, "identity"), etagFor(entry, "gzip"), etagFor(entry, "br")]);
}

/** Writes a stored page (or a 304) for this request. */
export function sendCached(req: IncomingMessage, res: ServerResponse, cache: PageCache, entry: CachedPage, state: "hit" | "miss") {
  const encoding = pickEncoding(header(req, "accept-encoding"));
  const etag = etagFor(entry, encoding);
  nameRoute(res, entry.route);
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
  const body = cache.body(entry, encoding, { quick: state === "miss" });
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
const NEVER = /^\/(healthz|readyz|media\/|assets\/|favicon)/;

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
export interface Candidate {
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

/** What the front marked on this request, for the capture middleware. */
export function candidateOf(req: IncomingMessage): Candidate | undefined {
  return (req as WithCandidate)[CANDIDATE];
}
