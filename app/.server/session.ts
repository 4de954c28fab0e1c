import { redirect, type RouterContextProvider } from "react-router";
import { getSessionCookie } from "better-auth/cookies";
import { AUTH_COOKIE_PREFIX } from "./auth";
import { servicesContext, viewerContext, type Viewer, type ViewerRank } from "./context";

/** Reads the member behind the session cookie; null for visitors or an expired session. */
export async function loadViewer(context: Readonly<RouterContextProvider>, request: Request) {
  // No session cookie, no session: a visitor's page skips Better Auth's endpoint pipeline, which was
  // about 3% of an uncached anonymous page (issue 13).
  if (!getSessionCookie(request, { cookiePrefix: AUTH_COOKIE_PREFIX })) return { viewer: null, rank: null, headers: new Headers() };
  const { auth } = context.get(servicesContext);
  const { headers, response } = await auth.api.getSession({ headers: request.headers, returnHeaders: true });
  if (!response) return { viewer: null, rank: null, headers };
  const user = response.user as typeof response.user & { handle: string; role: Viewer["role"]; rank?: string | null; seenRank?: string | null };
  const viewer: Viewer = { id: user.id, name: user.name, email: user.email, handle: user.handle, role: user.role };
  const rank: ViewerRank = { rank: user.rank ?? "initiate", seenRank: user.seenRank ?? null };
  return { viewer, rank, headers };
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

/** For member-only pages: the viewer, or a redirect to sign-in that comes back here. */
export function requireViewer(context: Readonly<RouterContextProvider>, request: Request): Viewer {
  const viewer = context.get(viewerContext);
  if (!viewer) {
    const url = new URL(request.url);
    throw redirect(`/signin?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return viewer;
}
