import { isIP } from "node:net";
import { randomFillSync, randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

/** One megabyte: PRODUCT.md §7 limits texts well under it; upload routes declare their own (ADR 0020). */
export const MAX_BODY_BYTES = 1024 * 1024;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId: string;
      nonce: string;
      logger: Logger;
    }
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives each request an id (kept from X-Request-Id when sane) and logs one JSON line when done. */
export function requestLogging(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const started = process.hrtime.bigint();
    res.locals.requestId = requestId;
    res.locals.logger = logger.child({ requestId });
    res.setHeader("X-Request-Id", requestId);
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // A probe every few seconds would drown the log; a failing one is logged.
      if ((req.path === "/healthz" || req.path === "/readyz") && res.statusCode === 200) return;
      res.locals.logger.info({ method: req.method, path: req.originalUrl, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    });
    next();
  };
}

export interface SecurityOptions {
  https: boolean;
  development: boolean;
}

export interface CspOptions extends SecurityOptions {
  /** This response's nonce for React Router's inline scripts. */
  nonce?: string;
  /**
   * 'sha256-…' sources instead of a nonce: a page kept by the page cache is sent to many readers,
   * and a nonce sent twice is no nonce (ADR 0026).
   */
  scriptHashes?: string[];
}

/** The Content-Security-Policy value: the same directives for every page, scripts by nonce or hash. */
export function contentSecurityPolicy({ https, development, nonce, scriptHashes }: CspOptions) {
  const scripts = scriptHashes ? ["'self'", ...scriptHashes].join(" ") : `'self' 'nonce-${nonce}'`;
  const directives = [
    "default-src 'self'",
    // Vite's dev client injects inline module scripts and talks over a websocket.
    development ? "script-src 'self' 'unsafe-inline'" : `script-src ${scripts}`,
    // Toasts set inline style attributes; no stylesheet comes from elsewhere.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    development ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

const NONCE_BYTES = 16;
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceAt = noncePool.length;
/**
 * 128 fresh bits from the CSPRNG, base64. Drawn from a pool filled 256 nonces at a time, as Node
 * does for randomUUID: a randomBytes(16) call per request was 3% of an uncached page (issue 13).
 * Every slice is handed out once.
 */
export function freshNonce() {
  if (nonceAt + NONCE_BYTES > noncePool.length) {
    randomFillSync(noncePool);
    nonceAt = 0;
  }
  const nonce = noncePool.toString("base64", nonceAt, nonceAt + NONCE_BYTES);
  nonceAt += NONCE_BYTES;
  return nonce;
}

/** Security headers on every response, with a fresh CSP nonce for React Router's inline scripts. */
export function securityHeaders({ https, development }: SecurityOptions) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = freshNonce();
    res.locals.nonce = nonce;
    res.setHeader("Content-Security-Policy", contentSecurityPolicy({ https, development, nonce }));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()");
    // From BASE_URL alone, never from the request (req.secure trusts X-Forwarded-Proto): a page kept
    // by the page cache replays its headers to every later reader, over http too (issue 25).
    if (https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a body over the limit before anything reads it. Browsers always send Content-Length for
 * form posts; a streamed body without one is refused too, since we could not bound it up front.
 * `routeLimit` names a larger bound for the routes that take uploads (decided by the route the
 * request matches); their own parser still counts every byte as it streams in.
 */
export function bodyLimit(maxBytes = MAX_BODY_BYTES, routeLimit?: (req: Request) => Promise<number | undefined>) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const limit = (await routeLimit?.(req)) ?? maxBytes;
    const length = req.get("content-length");
    if (length === undefined) {
      if (req.get("transfer-encoding")) return void res.status(411).type("text/plain").send("Length Required");
      return next();
    }
    if (!/^\d+$/.test(length) || Number(length) > limit) {
      return void res.status(413).type("text/plain").send("Request body too large");
    }
    next();
  };
}

/**
 * CSRF defence for every state-changing request: the browser's Origin (or, failing that,
 * Sec-Fetch-Site) must say the request comes from this site. SameSite=Lax cookies are the second
 * layer (ADR 0005).
 */
export function sameOriginWrites(allowedOrigins: () => string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    const own = `${req.protocol}://${req.get("host")}`;
    if (origin) {
      if (origin === own || allowedOrigins().includes(origin)) return next();
      return void res.status(403).type("text/plain").send("Cross-origin request refused");
    }
    const site = req.get("sec-fetch-site");
    if (site && site !== "same-origin" && site !== "none") {
      return void res.status(403).type("text/plain").send("Cross-origin request refused");
    }
    next();
  };
}

/** The methods the site's routes answer; React Router handles any of them per route. */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);
export const ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS";
/**
 * Known methods the site refuses outright: TRACE echoes a request back (cross-site tracing). Node's
 * parser already answers TRACK with 400 and CONNECT never reaches a request handler.
 */
const REFUSED_METHODS = new Set(["TRACE"]);

/**
 * Answers methods no route implements before React Router sees them, so that a scanner's TRACE or
 * PROPFIND is a 405/501 logged at info (by requestLogging), not an error. OPTIONS gets 204 with
 * Allow: the site is same-origin only and answers no CORS preflight.
 */
export function methods() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (ROUTED_METHODS.has(req.method)) return next();
    res.setHeader("Allow", ALLOWED_METHODS);
    if (req.method === "OPTIONS") return void res.status(204).end();
    if (REFUSED_METHODS.has(req.method)) return void res.status(405).type("text/plain").send("Method Not Allowed");
    res.status(501).type("text/plain").send("Not Implemented");
  };
}

/**
 * The client's address as rate limits and view counts key it: Express's reading of X-Forwarded-For
 * under "trust proxy" when that is an IP address, else the connection's own. The header is the
 * client's to write whenever a trusted proxy passes it on: 4,000 characters of it in a rate-limit
 * key once failed the key's index on PostgreSQL (a 500), and any made-up value was a fresh limit.
 */
export function clientAddress(req: Request): string {
  const ip = withoutPort(req.ip ?? "");
  return isIP(ip) ? ip : (req.socket.remoteAddress ?? "unknown");
}

/** Some proxies write the client as "1.2.3.4:5678" or "[2001:db8::1]:5678"; the port is not the client. */
function withoutPort(value: string) {
  const v6 = /^\[([^\]]+)\](?::[0-9]+)?$/.exec(value);
  if (v6) return v6[1]!;
  const v4 = /^([0-9.]+):[0-9]+$/.exec(value);
  return v4 ? v4[1]! : value;
}

/**
 * A NUL in the address (`%00` in the path or the query) is a 400 before any route sees it: no page
 * of this site has one, and a NUL that reached a query would fail it on PostgreSQL (a 500) where
 * SQLite would quietly compare it. Form bodies lose theirs in readForm (app/.server/forms.ts).
 */
export function refuseNulInUrl() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!/%00|\0/.test(req.originalUrl)) return next();
    res.status(400).type("text/plain").send("Bad Request");
  };
}

/**
 * While the server drains before a stop, every response says `Connection: close`, so keep-alive
 * clients finish the request they sent and then reconnect elsewhere instead of reusing this socket.
 * Decided when the head is written, not when the request came: a request already in flight when
 * the stop began must close its socket too, or the client would send its next request on it.
 */
export function closeWhileDraining(draining: () => boolean) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
      if (draining() && !this.headersSent) this.setHeader("Connection", "close");
      return writeHead.apply(this, args);
    } as Response["writeHead"];
    next();
  };
}

/**
 * `/terms/` and `/terms` are one page: a trailing slash gets a permanent redirect to the address
 * without it (301 for GET and HEAD, 308 for the rest so a form post stays a post), the query kept
 * (issue 26, item 13). Before the page cache stores anything, so a slashed address is never kept.
 * The target is always a path on this site: leading slashes or backslashes collapse into one "/",
 * or `//evil.com/` would become a redirect to `//evil.com`, which browsers read as another host.
 */
export function trailingSlashRedirect() {
  return (req: Request, res: Response, next: NextFunction) => {
    const location = withoutTrailingSlash(req.originalUrl);
    if (location === null) return next();
    res.redirect(req.method === "GET" || req.method === "HEAD" ? 301 : 308, location);
  };
}

/** The same-site address without the path's trailing slashes, or null when there are none to drop. */
export function withoutTrailingSlash(url: string): string | null {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  // Only origin-form targets ("/…"); "*" and absolute forms are not ours to rewrite.
  if (!path.startsWith("/") || path.length < 2 || !/[/\\]$/.test(path)) return null;
  const trimmed = path.replace(/[/\\]+$/, "").replace(/^[/\\]+/, "/");
  // "/", "//" and "/\" are the home page's address.
  const same = trimmed === "" ? "/" : trimmed;
  if (same === "/" && path === "/") return null;
  return same + (queryAt === -1 ? "" : url.slice(queryAt));
}
