import type { Route } from "./+types/media";
import { servicesContext } from "~/.server/context";
import { serveMedia } from "~/.server/media/serve-media";

/** Uploaded files under their generated names (ADR 0020). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return serveMedia(context.get(servicesContext).media, params.name, request);
}
