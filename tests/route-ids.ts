// The site's route ids, derived from app/routes.ts as React Router derives them when it builds the
// route manifest: an entry's explicit `id`, else its file path under app/ without the extension;
// children walked too; plus "root" (app/root.tsx). The error-boundary test checks this list against
// the built site's routes, so the tests that read it without a build (route policies) can trust it.
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "../app/routes";

/** The route ids of a route config, in the order React Router walks it, with "root" first. */
export function routeIdsOf(config: readonly RouteConfigEntry[]): string[] {
  const ids = ["root"];
  const walk = (entry: RouteConfigEntry) => {
    ids.push(entry.id ?? entry.file.replace(/\.[a-z0-9]+$/i, ""));
    entry.children?.forEach(walk);
  };
  config.forEach(walk);
  return ids;
}

/** The route ids of the site's own route config. */
export const siteRouteIds = (): string[] => routeIdsOf(routes);
