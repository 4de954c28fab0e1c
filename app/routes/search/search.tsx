import { data } from "react-router";
import type { Route } from "./+types/search";
import { PageHeader } from "~/components/community/page-header";
import { servicesContext, requestContext, viewerContext } from "~/.server/context";
import { searchResults, type SearchFilters } from "~/.server/domain/search/search-read-model";
import { searchAllowed } from "~/.server/domain/search/search-limit";
import { decodeSearchCursor, INVALID_PAGE_LINK } from "~/.server/pagination";
import { SearchForm } from "~/features/search/search-form";
import { SearchResults } from "~/features/search/search-results";
import { isProfileHandle } from "~/lib/members";
import { SEARCH_KINDS, SEARCH_SORTS, type SearchKindFilter } from "~/lib/search";
import { isVirtue } from "~/lib/virtues";
import { searchQuerySchema } from "~/schemas/search";
import * as z from "zod/mini";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.query ? `Search: ${loaderData.query} · Inner Peace. Outer Strength.` : "Search · Inner Peace. Outer Strength." },
  // Results pages are for members, not for search engines (robots.txt keeps crawlers out too).
  { name: "robots", content: "noindex" },
];

const oneOf = <T extends string>(value: string | null, choices: readonly { id: T }[]): T | null => choices.find((c) => c.id === value)?.id ?? null;

/**
 * /search?q=… (issue 30). Filters are not resources: an unknown kind, section, virtue or sort is
 * ignored, as on the Council's list. A query too long or a page link that is no cursor is a 400
 * with the page and its message; past the limit, a 429.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const rawQuery = params.get("q") ?? "";
  const section = params.get("section");
  const virtue = params.get("virtue");
  const author = (params.get("author") ?? "").trim().toLowerCase().replace(/^@/, "");
  const filters: SearchFilters = {
    kind: oneOf<SearchKindFilter>(params.get("kind"), SEARCH_KINDS),
    section: section === "monastery" || section === "battlefield" ? section : null,
    virtue: virtue && isVirtue(virtue) ? virtue : null,
    author: author || null,
    sort: oneOf(params.get("sort"), SEARCH_SORTS) ?? "relevance",
    bookmarks: params.get("in") === "bookmarks",
  };
  const base = { query: rawQuery.slice(0, 300), filters, signedIn: context.get(viewerContext) !== null };
  const query = z.safeParse(searchQuerySchema, rawQuery);
  if (!query.success) return data({ ...base, error: query.error.issues[0]!.message, outcome: null, next: null, first: null }, { status: 400 });
  const rawAfter = params.get("after");
  const after = rawAfter === null ? null : decodeSearchCursor(rawAfter);
  if (rawAfter !== null && !after) return data({ ...base, error: INVALID_PAGE_LINK, outcome: null, next: null, first: null }, { status: 400 });
  if (query.data === "") return { ...base, query: "", error: null, outcome: null, next: null, first: null };

  const services = context.get(servicesContext);
  const allowed = await searchAllowed(services, context.get(requestContext).clientIp);
  if (!allowed.ok) return data({ ...base, error: allowed.errors.form, outcome: null, next: null, first: null }, { status: 429 });
  // A handle that cannot be anyone's is no member, without asking the database.
  const outcome =
    filters.author && !isProfileHandle(filters.author)
      ? ({ status: "no-author", author: filters.author } as const)
      : await searchResults(services.db, context.get(viewerContext), query.data, filters, after);
  const href = (cursor: string | null) => {
    if (cursor === null) return null;
    const next = new URLSearchParams(params);
    next.set("after", cursor);
    return `/search?${next}`;
  };
  const firstParams = new URLSearchParams(params);
  firstParams.delete("after");
  return {
    ...base,
    query: query.data,
    error: null,
    outcome,
    next: outcome.status === "found" ? href(outcome.next) : null,
    first: after ? `/search?${firstParams}` : null,
  };
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { query, filters, error, outcome, next, first, signedIn } = loaderData;
  return (
    <>
      <PageHeader title="Search" intro="Discussions, replies, questions, answers, creations, comments, challenges, events and members." />
      <div className="mx-auto max-w-4xl px-4 py-8">
        <SearchForm query={query} filters={filters} error={error} signedIn={signedIn} />
        <SearchResults query={query} outcome={outcome} next={next} first={first} />
      </div>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
