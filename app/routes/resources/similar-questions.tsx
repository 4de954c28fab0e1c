import type { Route } from "./+types/similar-questions";
import { requestContext, servicesContext } from "~/.server/context";
import { similarQuestions } from "~/.server/domain/search/related-read-model";
import { searchAllowed } from "~/.server/domain/search/search-limit";
import { QUERY_MAX_LENGTH } from "~/lib/search";

/**
 * /council/similar?title=… (issue 30): questions already asked that are near a title being typed,
 * as JSON for the ask form's live list. A search like any other: counted against the IP's searches.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const title = (new URL(request.url).searchParams.get("title") ?? "").slice(0, QUERY_MAX_LENGTH);
  const services = context.get(servicesContext);
  const allowed = await searchAllowed(services, context.get(requestContext).clientIp);
  if (!allowed.ok) return Response.json({ questions: [], error: allowed.errors.form }, { status: 429 });
  return Response.json({ questions: await similarQuestions(services.db, title) }, { headers: { "cache-control": "no-store" } });
}
