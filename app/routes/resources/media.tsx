import type { Route } from "./+types/media";
import { servicesContext, viewerContext } from "~/.server/context";
import { mediaAccess } from "~/.server/domain/forge/media-access";
import { serveMedia } from "~/.server/media/serve-media";

/** Uploaded files under their generated names (ADR 0020), to whoever may see the creation that shows them. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, media } = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  return serveMedia(media, params.name, request, (name) => mediaAccess(db, name, viewer));
}
