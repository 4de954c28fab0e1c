import type { ServerResponse } from "node:http";

/**
 * Which route answered a response, for the operators' metrics (issue 33): React Router's route id
 * when a route rendered it (fresh or from the page cache), else undefined and the metrics name it
 * by its path's kind. A WeakMap, so nothing is kept past the response.
 */
const names = new WeakMap<ServerResponse, string>();

export function nameRoute(res: ServerResponse, route: string | undefined) {
  if (route) names.set(res, route);
}

export function routeNameOf(res: ServerResponse): string | undefined {
  return names.get(res);
}
