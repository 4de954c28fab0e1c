import { data } from "react-router";
import type { Route } from "./+types/markdown-preview";
import { servicesContext, viewerContext } from "~/.server/context";
import { previewMarkdown } from "~/.server/domain/writing/markdown-preview";
import { readForm } from "~/.server/forms";

/**
 * POST /markdown/preview (issue 32): the Preview tab of every Markdown box sends its text here and
 * shows the HTML it gets back, as JSON. Members only (a visitor writes nothing); nothing is stored.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) return Response.json({ error: "Sign in to preview." }, { status: 401 });
  const form = await readForm(request);
  const body = form.get("body");
  if (typeof body !== "string") return Response.json({ error: "Nothing to preview." }, { status: 400 });
  const done = await previewMarkdown(context.get(servicesContext), viewer, body);
  if (!done.ok) return Response.json({ error: Object.values(done.errors)[0] }, { status: done.status });
  return Response.json({ html: done.value.html }, { headers: { "cache-control": "no-store" } });
}

/** A GET has nothing to show: the preview is asked for with the text in a POST. */
export function loader() {
  throw data("Method Not Allowed", { status: 405, headers: { allow: "POST" } });
}
