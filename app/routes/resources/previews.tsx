import type { Route } from "./+types/previews";
import { servicesContext } from "~/.server/context";
import { previewPng } from "~/.server/domain/discovery/previews";

/**
 * `/previews/<kind>-<id>-<hash>.png` and the site's own (issue 30): the picture a shared link shows.
 * The name holds a hash of what it shows, so a year's caching is safe; a name that is no current
 * picture (an old version, a hidden post, anything made up) is a 404, drawn never.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const png = await previewPng(context.get(servicesContext).db, params.name ?? "");
  if (!png) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(png), {
    headers: { "content-type": "image/png", "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" },
  });
}
