import { sql } from "kysely";
import { UNSAFE_decodeViaTurboStream as decodeTurboStream } from "react-router";
import { describe, expect, it } from "vitest";
import { ENGINE, holdingSchemaLock, PG_URL } from "./test-services";
import { loadApp, readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";
import { siteRouteIds } from "../route-ids";

const web = siteOverHttp();

/** The route ids whose boundary caught an error, from the hydration data the page hands the browser. */
async function caughtBy(html: string): Promise<string[]> {
  const chunks = [...html.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\)/g)].map((m) => JSON.parse(m[1]) as string);
  const body = new Response(chunks.join("")).body!;
  const { value } = (await decodeTurboStream(body, globalThis)) as { value: { errors?: Record<string, unknown> } };
  return Object.keys(value.errors ?? {});
}

const join = async (name: string) => (await joinOverHttp(web, name)).cookie;

/** The page at `path` as the member sees it, which must answer `status`. */
async function pageAnswering(path: string, status: number, cookie: string) {
  const res = await web.http.get(path, { cookie });
  expect(res.status).toBe(status);
  return readable(res);
}

describe(`error boundaries over HTTP on ${ENGINE}`, () => {
  it("every route module that renders a page exports an ErrorBoundary; resource routes stay resource routes", async () => {
    const build = await (await loadApp()).build();
    const routes = Object.entries(build.routes).map(([id, route]) => ({ id, module: route!.module }));
    // The ids the route-policy test derives from app/routes.ts without a build are the build's.
    expect(routes.map((r) => r.id).sort()).toEqual(siteRouteIds().sort());
    const pages = routes.filter((r) => r.module.default);
    expect(pages.length).toBeGreaterThan(25);
    expect(pages.filter((r) => typeof r.module.ErrorBoundary !== "function").map((r) => r.id)).toEqual([]);
    // An ErrorBoundary would make React Router render a page for these (POST /signout, /newsletter,
    // calendar files, stored media, the data download, robots.txt and the sitemap, the editor's
    // Markdown preview and drafts).
    const resources = routes.filter((r) => !r.module.default).map((r) => r.id);
    expect(resources.sort()).toEqual([
      "routes/account/sign-out",
      "routes/events/event-calendar",
      "routes/events/events-calendar",
      "routes/resources/drafts",
      "routes/resources/markdown-preview",
      "routes/resources/media",
      "routes/resources/newsletter",
      "routes/resources/post-image-upload",
      "routes/resources/previews",
      "routes/resources/robots",
      "routes/resources/settings-export",
      "routes/resources/similar-questions",
      "routes/resources/sitemap",
      "routes/resources/sitemap-index",
    ]);
    expect(routes.filter((r) => !r.module.default && r.module.ErrorBoundary).map((r) => r.id)).toEqual([]);
  });

  it("a page whose data fails keeps the navigation with the member and says what failed", async () => {
    const cookie = await join("Ada Errors");

    // A path the :section route matches but no section has: its boundary shows the 404 page, titled.
    const unknownPage = await pageAnswering("/no-such-page", 404, cookie);
    expect(unknownPage).toContain("<title>Page not found · Inner Peace. Outer Strength.</title>");
    expect(unknownPage).toContain("Oops! Page not found");
    expect(unknownPage).toContain('aria-label="Account menu for Ada Errors"');
    expect(await caughtBy(unknownPage)).toEqual(["routes/forum/section"]);

    const notFound = await pageAnswering("/monastery/no-such-topic", 404, cookie);
    expect(notFound).toContain("Oops! Page not found");
    expect(notFound).toContain("<title>Topic not found</title>");
    expect(notFound).toContain('aria-label="Account menu for Ada Errors"');
    expect(await caughtBy(notFound)).toEqual(["routes/forum/topic"]);

    // The Council's questions cannot be read: that part of the site fails, the rest stands.
    const db = web.site.services.db;
    // Renaming a table is a schema change: on PostgreSQL it holds the schema lock meanwhile, as
    // migrations do, or another file's migration listing every schema's tables meets the renamed one.
    const whileRenamed = (work: () => Promise<void>) => (ENGINE === "postgres" ? holdingSchemaLock(PG_URL, work) : work());
    await whileRenamed(async () => {
      await sql`alter table question rename to question_away`.execute(db);
      try {
        const page = await pageAnswering("/council", 500, cookie);
        expect(page).toContain("Unexpected Application Error!");
        expect(page).toContain('aria-label="Account menu for Ada Errors"');
        expect(await caughtBy(page)).toEqual(["routes/council/council"]);
      } finally {
        await sql`alter table question_away rename to question`.execute(db);
      }
    });
    expect((await web.http.get("/council", { cookie })).status).toBe(200);
  });
});
