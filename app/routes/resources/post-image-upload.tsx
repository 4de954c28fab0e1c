import { data } from "react-router";
import type { Route } from "./+types/post-image-upload";
import { servicesContext, viewerContext } from "~/.server/context";
import { uploadPostImage } from "~/.server/domain/writing/post-image-service";
import { readPostImageForm } from "~/.server/post-image-form";

/**
 * POST /uploads/images (issue 32, ADR 0071): an image added to a Markdown box by its button, a drop
 * or a paste. Answers JSON: the Markdown to insert, or the reason it was refused. Members only.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) return Response.json({ error: "Sign in to add images." }, { status: 401 });
  const read = await readPostImageForm(request);
  if (!read.ok) return Response.json({ error: read.message }, { status: read.status });
  const file = read.files.image;
  if (!file) return Response.json({ error: "Choose an image to add." }, { status: 400 });
  const done = await uploadPostImage(context.get(servicesContext), viewer, file);
  if (!done.ok) return Response.json({ error: Object.values(done.errors)[0] }, { status: done.status });
  return Response.json(done.value, { status: 201, headers: { "cache-control": "no-store" } });
}

/** A GET has nothing to show: images are sent in a POST. */
export function loader() {
  throw data("Method Not Allowed", { status: 405, headers: { allow: "POST" } });
}
