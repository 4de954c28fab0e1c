import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { matchedRoute, routeBodyLimit } from "./route-limits";

/** A build's route manifest as React Router's compiler writes it: flat, with parent ids. */
function buildOf(routes: Record<string, { parentId?: string; path?: string; index?: boolean; handle?: unknown }>) {
  const manifest = Object.fromEntries(
    Object.entries(routes).map(([id, r]) => [id, { id, parentId: r.parentId, path: r.path, index: r.index, module: { handle: r.handle } }]),
  );
  return { routes: manifest, basename: "/" } as unknown as ServerBuild;
}

describe("the route a request goes to", () => {
  const build = buildOf({
    root: { path: "" },
    "routes/home": { parentId: "root", index: true },
    "routes/discussion": { parentId: "root", path: "forum/:section/:discussionRef" },
    "routes/new-discussion": { parentId: "root", path: "forum/:section/new", handle: { maxBodyBytes: 4096 } },
    "routes/upload": { parentId: "root", path: "uploads/post-image", handle: { maxBodyBytes: 8_000_000 } },
    "routes/not-found": { parentId: "root", path: "*" },
  });

  it("is matched by React Router's ranking: a static segment before a parameter, a splat last", () => {
    expect(matchedRoute(build, "/")?.id).toBe("routes/home");
    expect(matchedRoute(build, "/forum/monks/new")?.id).toBe("routes/new-discussion");
    expect(matchedRoute(build, "/forum/monks/12-stillness")?.id).toBe("routes/discussion");
    expect(matchedRoute(build, "/nowhere/at/all")?.id).toBe("routes/not-found");
    // A data request is read as the page it loads.
    expect(matchedRoute(build, "/forum/monks/new.data")?.id).toBe("routes/new-discussion");
    expect(matchedRoute(build, "/_.data")?.id).toBe("routes/home");
  });

  it("is the same when asked again, and each build is matched against its own routes", () => {
    for (let round = 0; round < 3; round++) {
      expect(matchedRoute(build, "/forum/monks/new")?.id).toBe("routes/new-discussion");
      expect(matchedRoute(build, "/forum/warriors/7")?.id).toBe("routes/discussion");
      expect(matchedRoute(build, `/forum/monks/${"x".repeat(400)}`)?.id).toBe("routes/discussion");
    }
    // Another build (a deploy swapped in) is matched against its own routes, not the first one's.
    const next = buildOf({ root: { path: "" }, "routes/only": { parentId: "root", path: "forum/:section/new" } });
    expect(matchedRoute(next, "/forum/monks/new")?.id).toBe("routes/only");
    expect(matchedRoute(next, "/forum/warriors/7")).toBeUndefined();
  });

  it("gives each route's own body limit, and none to a route that declares none", () => {
    expect(routeBodyLimit(build, "/uploads/post-image")).toBe(8_000_000);
    expect(routeBodyLimit(build, "/forum/monks/new.data")).toBe(4096);
    expect(routeBodyLimit(build, "/forum/monks/3")).toBeUndefined();
  });
});
