import { describe, expect, it } from "vitest";
import { sitemapPart, sitemapParts } from "~/.server/domain/discovery/sitemap-read-model";
import { creation, discussion, member, question } from "../factories";
import { ENGINE } from "./test-services";
import { siteOverHttp } from "./site-server";

const web = siteOverHttp();
const db = () => web.site.services.db;
const BASE = "http://localhost:3000";
const now = () => new Date().toISOString();

/** The <loc> values of an XML sitemap or index, with a check that each entry is well formed. */
function locs(xml: string) {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1].replaceAll("&amp;", "&"));
}

async function xml(path: string) {
  const res = await web.http.get(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type"), path).toBe("application/xml; charset=utf-8");
  const body = await res.text();
  expect(body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'), path).toBe(true);
  return body;
}

/** Every address the sitemap lists, through its index, with each part's lastmod checked. */
async function listed() {
  const index = await xml("/sitemap.xml");
  expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  const addresses: string[] = [];
  for (const part of locs(index)) {
    expect(part.startsWith(`${BASE}/sitemap/`), part).toBe(true);
    const body = await xml(part.slice(BASE.length));
    expect(body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    for (const at of body.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)) expect(at[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    addresses.push(...locs(body));
  }
  return addresses;
}

describe(`robots.txt and the sitemap, on ${ENGINE}`, () => {
  it("robots.txt names the sitemap and keeps crawlers out of forms, search and one member's pages", async () => {
    const res = await web.http.get("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await res.text()).split("\n");
    expect(lines[0]).toBe("User-agent: *");
    for (const path of [
      "/settings",
      "/dashboard",
      "/notifications",
      "/search",
      "/council/similar",
      "/bookmarks",
      "/admin/",
      "/signin",
      "/join",
      // Who reacted, the flag form and the review queue (issue 31).
      "/reactions/",
      "/flags/",
      "/review",
      "/*/new",
      "/*/edit",
    ])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    expect(lines.some((l) => l === "Disallow: /")).toBe(false);
  });

  it("lists every public discussion, question, creation, event, topic and profile, and no hidden or deleted one", async () => {
    const services = web.site.services;
    const hiddenDiscussion = await discussion(services, { title: "Hidden from crawlers" });
    const deletedDiscussion = await discussion(services, { title: "Deleted before crawling" });
    await db().updateTable("discussion").set({ hidden_at: now() }).where("id", "=", hiddenDiscussion.id).execute();
    await db().updateTable("discussion").set({ deleted_at: now() }).where("id", "=", deletedDiscussion.id).execute();
    const hiddenQuestion = await question(services, { title: "A question hidden from crawlers" });
    await db().updateTable("question").set({ hidden_at: now() }).where("id", "=", hiddenQuestion.id).execute();
    const hiddenCreation = await creation(db(), { title: "A creation hidden from crawlers" });
    await db().updateTable("creation").set({ hidden_at: now() }).where("id", "=", hiddenCreation.id).execute();
    const gone = await member(db(), { handle: "deleted-sitemap1" });
    const cancelled = await db().selectFrom("event").select("id").orderBy("id").executeTakeFirstOrThrow();
    await db().updateTable("event").set({ cancelled_at: now() }).where("id", "=", cancelled.id).execute();

    const addresses = await listed();
    expect(new Set(addresses).size, "each address once").toBe(addresses.length);
    const paths = new Set(addresses.map((a) => (expect(a.startsWith(BASE), a).toBe(true), a.slice(BASE.length))));

    const discussions = await db()
      .selectFrom("discussion")
      .innerJoin("topic", "topic.id", "discussion.topic_id")
      .select(["discussion.id", "discussion.slug", "discussion.topic_id", "topic.section", "discussion.hidden_at", "discussion.deleted_at"])
      .execute();
    expect(discussions.length).toBeGreaterThan(5);
    for (const d of discussions) {
      const path = `/${d.section}/${d.topic_id}/${d.id}-${d.slug}`;
      expect(paths.has(path), path).toBe(d.hidden_at === null && d.deleted_at === null);
    }
    for (const table of ["question", "creation"] as const) {
      const rows = await db().selectFrom(table).select(["id", "hidden_at", "deleted_at"]).execute();
      expect(rows.length, table).toBeGreaterThan(2);
      const prefix = table === "question" ? "/council/" : "/forge/";
      for (const r of rows) expect(paths.has(`${prefix}${r.id}`), `${table} ${r.id}`).toBe(r.hidden_at === null && r.deleted_at === null);
    }
    for (const e of await db().selectFrom("event").select(["id", "cancelled_at"]).execute())
      expect(paths.has(`/events/${e.id}`), `event ${e.id}`).toBe(e.cancelled_at === null);
    for (const t of await db().selectFrom("topic").select(["id", "section"]).execute()) expect(paths.has(`/${t.section}/${t.id}`)).toBe(true);
    const members = await db().selectFrom("member").select("handle").execute();
    for (const m of members) expect(paths.has(`/members/${m.handle}`), m.handle).toBe(m.handle !== gone.handle);
    for (const path of ["/", "/monastery", "/battlefield", "/council", "/forge", "/challenges", "/events", "/members"])
      expect(paths.has(path), path).toBe(true);

    // Every address listed is a page that answers, as a crawler following it would find.
    for (const path of paths) expect((await web.http.get(path)).status, path).toBe(200);
  });

  it("splits posts into parts by id range, each part the same ids whatever is added later", async () => {
    const ids = (await db().selectFrom("discussion").select("id").orderBy("id").execute()).map((r) => r.id);
    const parts = await sitemapParts(db(), 2);
    const highest = ids[ids.length - 1];
    expect(parts.filter((p) => p.startsWith("discussions-"))).toEqual(Array.from({ length: Math.ceil(highest / 2) }, (_, i) => `discussions-${i + 1}`));
    const second = await sitemapPart(db(), "discussions-2", 2);
    const inRange = ids.filter((id) => id >= 3 && id <= 4);
    const hidden = await db().selectFrom("discussion").select("id").where("hidden_at", "is not", null).execute();
    expect(second?.map((e) => Number(/\/(\d+)-/.exec(e.path)?.[1]))).toEqual(inRange.filter((id) => !hidden.some((h) => h.id === id)));
  });

  it("answers 404 for a part the index never names, before any query", async () => {
    for (const name of [
      "discussions-0",
      "discussions-1234567",
      "discussions-999999",
      "members-999999",
      "discussions-01",
      "discussions",
      "secrets-1",
      "pages.txt",
      "..%2Fpackage.json",
      "members-1%27%20or%201%3D1",
    ]) {
      const path = `/sitemap/${name}${name.includes(".") || name.includes("%") ? "" : ".xml"}`;
      expect((await web.http.get(path)).status, path).toBe(404);
    }
    expect((await web.http.get("/sitemap/members-1.xml")).status).toBe(200);
  });
});
