import { createHmac, timingSafeEqual } from "node:crypto";
import { redirect, type RouterContextProvider } from "react-router";
import { getSessionCookie } from "better-auth/cookies";
import { AUTH_COOKIE_PREFIX, type Auth } from "./auth";
import { servicesContext, viewerContext, type AppServices, type Viewer, type ViewerRank } from "./context";
import { findSessionMember } from "./domain/accounts/member-repository";
import { unreadCount } from "./domain/notifications/notification-service";
import { toDate } from "~/lib/dates";
import { readsAsViewer, writesAsViewer, type PageViewer } from "./cache/page-tags";

/** Reads the member behind the session cookie; null for visitors or an expired session. */
export async function loadViewer(context: Readonly<RouterContextProvider>, request: Request) {
  // No session cookie, no session: a visitor's page skips Better Auth's endpoint pipeline, which was
  // about 3% of an uncached anonymous page (issue 13).
  if (!getSessionCookie(request, { cookiePrefix: AUTH_COOKIE_PREFIX })) return { viewer: null, rank: null, unread: 0, headers: new Headers() };
  const services = context.get(servicesContext);
  const settled = await settledSession(services, request);
  const writes = request.method !== "GET" && request.method !== "HEAD";
  if (settled) {
    // Only a settled session's page may be kept for the member (ADR 0040); Better Auth's path
    // below may set cookies, and a response that sets one is never kept.
    if (writes) writesAsViewer(settled.viewer.id);
    else readsAsViewer(settled.page);
    return { viewer: settled.viewer, rank: settled.rank, unread: settled.unread, headers: new Headers() };
  }
  const { headers, response } = await services.auth.api.getSession({ headers: request.headers, returnHeaders: true });
  if (!response) return { viewer: null, rank: null, unread: 0, headers };
  const user = response.user as typeof response.user & {
    handle: string;
    role: Viewer["role"];
    rank?: string | null;
    seenRank?: string | null;
    avatar?: string | null;
  };
  const viewer: Viewer = { id: user.id, name: user.name, email: user.email, handle: user.handle, role: user.role, avatar: user.avatar ?? null };
  const rank: ViewerRank = { rank: user.rank ?? "initiate", seenRank: user.seenRank ?? null };
  if (writes) writesAsViewer(viewer.id);
  // The bell's count; this page is never kept (Better Auth's path), so no fingerprint needs it.
  return { viewer, rank, unread: await unreadCount(services.db, viewer.id), headers };
}

type AuthContext = Awaited<Auth["$context"]>;
const authContexts = new WeakMap<Auth, Promise<AuthContext>>();

/**
 * The member of a valid session that Better Auth's getSession would return as it stands, without
 * writing anything: the signed session cookie verifies, its session exists, and it is neither
 * expired nor due for the daily refresh (`updateAge`). Anything else (no or a tampered cookie, a
 * revoked or expired session, a refresh due, a "don't remember me" or a session-data cookie) is
 * null, and loadViewer asks Better Auth, which also answers with the cookies to set or clear.
 * Better Auth's own path verified the HMAC through WebCrypto's asynchronous jobs and read the session
 * and the member in two statements through its endpoint pipeline: about 10% of a signed-in page's
 * server time (issue 13). Nothing is cached: a signed-out or revoked session is refused on the
 * next request, as before. The secret, cookie names and session ages are Better Auth's own.
 */
async function settledSession(services: AppServices, request: Request): Promise<{ viewer: Viewer; rank: ViewerRank; unread: number; page: PageViewer } | null> {
  let pending = authContexts.get(services.auth);
  if (!pending) authContexts.set(services.auth, (pending = services.auth.$context));
  const { secret, authCookies, sessionConfig } = await pending;
  const cookies = parseCookieHeader(request.headers.get("cookie") ?? "");
  if (cookies.has(authCookies.sessionData.name) || cookies.has(authCookies.dontRememberToken.name)) return null;
  const value = cookies.get(authCookies.sessionToken.name);
  // "<token>.<base64 HMAC-SHA256 of the token>", as better-call signs it.
  const dot = value?.lastIndexOf(".") ?? -1;
  if (!value || dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const expected = createHmac("sha256", secret).update(token).digest();
  const given = Buffer.from(signature, "base64");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const row = await findSessionMember(services.db, token);
  if (!row) return null;
  // Better Auth refreshes a session (a write and a new cookie) once it is updateAge old.
  const expiresAt = toDate(row.expires_at).getTime();
  const refreshAt = expiresAt - sessionConfig.expiresIn * 1000 + sessionConfig.updateAge * 1000;
  const now = Date.now();
  // NaN (a value that is not a time) fails every comparison: refused explicitly.
  if (!Number.isFinite(expiresAt) || expiresAt <= now || refreshAt <= now) return null;
  return {
    viewer: { id: row.id, name: row.name, email: row.email, handle: row.handle, role: row.role, avatar: row.avatar },
    rank: { rank: row.rank ?? "initiate", seenRank: row.seen_rank ?? null },
    unread: Number(row.unread),
    page: { memberId: row.id, token, fingerprint: sessionFingerprint(row), until: Math.min(expiresAt, refreshAt) },
  };
}

type SessionMember = NonNullable<Awaited<ReturnType<typeof findSessionMember>>>;

/**
 * What a signed-in page may depend on of its session and member row: the expiry (a refresh moves
 * it), the name, address, handle, role and picture (the header, the controls), the rank and the rank seen
 * (the rank-up toast), the XP, which other members' likes, votes and accepted answers move, and the
 * bell's unread count, which others' replies and mentions move (issue 28).
 */
function sessionFingerprint(row: SessionMember) {
  return JSON.stringify([
    toDate(row.expires_at).getTime(),
    row.id,
    row.name,
    row.email,
    row.handle,
    row.role,
    row.avatar,
    row.rank,
    row.seen_rank,
    Number(row.xp),
    Number(row.unread),
  ]);
}

/**
 * Whether a page kept for a member (ADR 0040) may be answered again: its session still exists,
 * neither expired nor due for its refresh, and nothing in its fingerprint moved. A sign-out, a
 * password reset, an account deletion, a new role or XP from someone else's vote all fail it.
 * One primary-key read, instead of rendering the page.
 */
export async function viewerStillValid(db: AppServices["db"], viewer: PageViewer, now = Date.now()) {
  if (now >= viewer.until) return false;
  const row = await findSessionMember(db, viewer.token);
  return row !== undefined && sessionFingerprint(row) === viewer.fingerprint;
}

/** Cookie names to values as better-call reads them: the first of a name wins, values URI-decoded. */
function parseCookieHeader(header: string) {
  const cookies = new Map<string, string>();
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (cookies.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // Kept as sent, as better-call keeps a value it cannot decode.
    }
    cookies.set(name, value);
  }
  return cookies;
}

/** Any origin would do: a target is kept only if resolving it against this one leaves it unchanged. */
const HERE = new URL("http://site.invalid/");
const REDIRECT_MAX = 2048;
/** \ is a slash to browsers; they strip tabs and newlines; other controls have no place in a path. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const UNSAFE = /[\\\u0000-\u001f\u007f]/;

/**
 * A path on this site to come back to, or the fallback; never another site and never a 500.
 * The target is resolved as a browser would resolve a Location header, so "/\t/evil.example"
 * (browsers drop tabs and newlines: "//evil.example") or "/\\evil" (read as "//evil") cannot
 * leave the site. Backslashes, control characters and encoded leading slashes are refused
 * outright; what is kept is the normalised path, query and fragment, in ASCII (issue 7, item 9).
 */
export function safeRedirectTarget(target: FormDataEntryValue | string | null | undefined, fallback = "/dashboard") {
  if (typeof target !== "string" || target.length > REDIRECT_MAX || !target.startsWith("/")) return fallback;
  if (UNSAFE.test(target)) return fallback;
  let url: URL;
  try {
    url = new URL(target, HERE);
  } catch {
    return fallback;
  }
  if (url.origin !== HERE.origin) return fallback;
  const path = url.pathname + url.search + url.hash;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return fallback;
  }
  // "/%2F%2Fevil" or "/%09/evil" stay on this site, but a proxy or framework that decodes them once
  // more might not: the decoded path must pass the same checks.
  if (decoded.startsWith("//") || UNSAFE.test(decoded) || path.length > REDIRECT_MAX) return fallback;
  return path;
}

/**
 * The address of the page a request is for, to come back to after signing in. A client-side
 * navigation or form post asks for "<page>.data" ("<page>/_.data" after a trailing slash) with React
 * Router's own `_routes` parameter; the member must come back to the page, not to its data.
 */
export function pageAddressOf(request: Request) {
  const url = new URL(request.url);
  let path = url.pathname;
  // React Router writes "/page.data", and "/_.data" after a trailing slash ("/" is "/_.data").
  if (path.endsWith("/_.data")) path = path.slice(0, -"_.data".length);
  else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  url.searchParams.delete("_routes");
  return path + url.search;
}

/** For member-only pages: the viewer, or a redirect to sign-in that comes back here. */
export function requireViewer(context: Readonly<RouterContextProvider>, request: Request): Viewer {
  const viewer = context.get(viewerContext);
  if (!viewer) throw redirect(`/signin?redirectTo=${encodeURIComponent(pageAddressOf(request))}`);
  return viewer;
}
