// Every route declares its page-cache policy in one table (issue 27, ADR 0051): a route missing from
// app/.server/cache/route-policies.ts is never kept, silently; a policy left for a route that no
// longer exists hides the gap a renamed route opens. The routes come from app/routes.ts, with ids as
// React Router derives them (tests/route-ids.ts, checked against the build by the error-boundary test).
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import { routeCachePolicies } from "~/.server/cache/route-policies";
import routes from "../../app/routes";
import { routeIdsOf, siteRouteIds } from "../route-ids";

/** Routes with no policy, and policies for no route. */
function policyGaps(routeIds: readonly string[], policies: Readonly<Record<string, unknown>>) {
  const declared = Object.keys(policies);
  return {
    withoutPolicy: routeIds.filter((id) => !declared.includes(id)),
    withoutRoute: declared.filter((id) => !routeIds.includes(id)),
  };
}

describe("route cache policies", () => {
  it("every route of app/routes.ts has a policy, and every policy a route", () => {
    const ids = siteRouteIds();
    expect(ids.length).toBeGreaterThan(40);
    expect(ids).toContain("root");
    expect(ids).toContain("content/faq");
    expect(policyGaps(ids, routeCachePolicies)).toEqual({ withoutPolicy: [], withoutRoute: [] });
  });

  it("fails on a route that declares nothing and on a policy whose route was removed", () => {
    // The site's config with new routes nobody gave a policy (a layout and its child) and one taken away.
    const search: RouteConfigEntry = { path: "search", file: "routes/search/layout.tsx", children: [{ index: true, file: "routes/search/results.tsx" }] };
    const broken = [...routes.filter((r) => r.file !== "routes/pages/ranks.tsx"), search];
    expect(policyGaps(routeIdsOf(broken), routeCachePolicies)).toEqual({
      withoutPolicy: ["routes/search/layout", "routes/search/results"],
      withoutRoute: ["routes/pages/ranks"],
    });
    // An explicit id counts, not the file: five content pages share one module.
    expect(routeIdsOf([{ path: "about", file: "routes/pages/content-page.tsx", id: "content/about" }])).toEqual(["root", "content/about"]);
  });
});
