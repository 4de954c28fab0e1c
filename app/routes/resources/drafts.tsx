import { data, redirect } from "react-router";
import type { Route } from "./+types/drafts";
import { servicesContext, viewerContext } from "~/.server/context";
import { discardDraft, draftFor, keepDraft } from "~/.server/domain/writing/draft-service";
import { readForm } from "~/.server/forms";
import { requireViewer, safeRedirectTarget } from "~/.server/session";

/**
 * /drafts (issue 32): the editor's script asks for the member's draft of a place (GET, JSON) and
 * keeps it every few seconds while they type (POST, JSON); the dashboard's Discard button posts
 * `intent=discard` as a plain form. Members only; never kept by the page cache.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) return Response.json({ error: "Sign in to keep drafts." }, { status: 401 });
  const place = new URL(request.url).searchParams.get("place") ?? "";
  const draft = await draftFor(context.get(servicesContext).db, viewer, place);
  return Response.json({ draft }, { headers: { "cache-control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  if (field("intent") === "discard") {
    const viewer = requireViewer(context, request);
    await discardDraft(services.db, viewer, field("place"));
    return redirect(safeRedirectTarget(field("redirectTo"), "/dashboard"), 303);
  }
  const viewer = context.get(viewerContext);
  if (!viewer) return Response.json({ error: "Sign in to keep drafts." }, { status: 401 });
  const kept = await keepDraft(services, viewer, {
    place: field("place"),
    body: field("body"),
    label: field("label"),
    url: field("url"),
    member: field("member"),
  });
  if (!kept.ok) return Response.json({ error: Object.values(kept.errors)[0] }, { status: kept.status });
  return data({ kept: true });
}
