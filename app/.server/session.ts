import { redirect, type RouterContextProvider } from "react-router";
import { servicesContext, viewerContext, type Viewer } from "./context";

/** Reads the member behind the session cookie; null for visitors or an expired session. */
export async function loadViewer(context: Readonly<RouterContextProvider>, request: Request) {
  const { auth } = context.get(servicesContext);
  const { headers, response } = await auth.api.getSession({ headers: request.headers, returnHeaders: true });
  if (!response) return { viewer: null, headers };
  const user = response.user as typeof response.user & { handle: string; role: Viewer["role"] };
  const viewer: Viewer = { id: user.id, name: user.name, email: user.email, handle: user.handle, role: user.role };
  return { viewer, headers };
}

/** A path on this site to come back to, or the fallback; never another site. */
export function safeRedirectTarget(target: FormDataEntryValue | string | null | undefined, fallback = "/dashboard") {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) {
    return fallback;
  }
  return target;
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
