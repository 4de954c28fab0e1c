import { describe, expect, it } from "vitest";
import { encodeSearchCursor } from "~/.server/pagination";
import { moderate } from "~/.server/domain/forum/forum-service";
import { discussion, member, question, topic } from "../factories";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp();
let ips = 0;
/** Each test from an address of its own, so the searches it makes count against its own limit. */
const from = () => ({ "x-forwarded-for": `203.0.113.${++ips}` });
const search = (query: string, headers = from()) => web.http.get(`/search?q=${encodeURIComponent(query)}`, headers);

describe(`/search over HTTP, on ${ENGINE}`, () => {
  it("every page has the search field in its navigation, a GET form to /search", async () => {
    const page = await readable(await web.http.get("/"));
    // The bar's field and the menu's (only one shows at any width), each with its label.
    for (const id of ["site-search", "mobile-search"]) {
      expect(page).toContain(`<label for="${id}" class="sr-only">Search</label>`);
      const input = new RegExp(`<input id="${id}"[^>]*>`).exec(page)?.[0] ?? "";
      expect(input).toContain('type="search"');
      expect(input).toContain('name="q"');
    }
    const forms = page.match(/<form role="search" aria-label="Search the site"[^>]*>/g) ?? [];
    expect(forms).toHaveLength(2);
    for (const form of forms) expect(form).toMatch(/action="\/search" method="get"/);
  });

  it("finds a post by a word of its body, marks the word, and shows member text as text", async () => {
    const d = await discussion(web.site.services, { title: "Evening <b>bold</b> practice", body: "A <script>alert(1)</script> zebrafinch sat still." });
    const res = await search("zebrafinch");
    expect(res.status).toBe(200);
    const page = await readable(res);
    expect(page).toContain("Results for “zebrafinch”");
    expect(page).toContain(`href="/${d.section}/${d.topicId}/${d.id}-${d.slug}"`);
    expect(page).toMatch(/<mark[^>]*>zebrafinch<\/mark>/);
    expect(page).toContain("Evening &lt;b&gt;bold&lt;/b&gt; practice");
    expect(page).not.toContain("<script>alert(1)");
    expect(page).toContain('<meta name="robots" content="noindex"/>');

    // Never kept: a new post is found by the next search.
    const later = await discussion(web.site.services, { title: "Later", body: "Another zebrafinch." });
    expect(await readable(await search("zebrafinch"))).toContain(`/${later.id}-${later.slug}"`);
  });

  it("shows the form alone without words, and says so when nothing is found or the author is nobody", async () => {
    const empty = await readable(await web.http.get("/search", from()));
    expect(empty).toMatch(/<label[^>]*for="search-q">Search for<\/label>/);
    expect(empty).not.toContain("Results for");
    expect(await readable(await search("-alone"))).toContain("Type a word to search for");
    expect(await readable(await search("qwzxyplonk"))).toContain("Nothing found.");
    const nobody = await web.http.get("/search?q=zebrafinch&author=nobody-here", from());
    expect(nobody.status).toBe(200);
    expect(await readable(nobody)).toContain("No member has the handle “nobody-here”.");
  });

  it("keeps the filters in its page links and finds members by name", async () => {
    const named = await member(web.site.services.db, { name: "Quillon Tern" });
    const page = await readable(await search("quillon"));
    expect(page).toContain(`href="/members/${named.handle}"`);
    const t = { id: "", section: "monastery" as const };
    const first = await discussion(web.site.services, { title: "Tern one", body: "Ternwhistle." });
    t.id = first.topicId;
    for (let i = 0; i < 21; i++) await discussion(web.site.services, { topic: t, title: `Tern ${i}`, body: "Ternwhistle again." });
    const res = await web.http.get("/search?q=ternwhistle&sort=newest&section=monastery", from());
    const html = await readable(res);
    const next = /href="(\/search\?[^"]*after=[^"]*)"[^>]*>Next page/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toBeDefined();
    expect(next).toContain("sort=newest");
    expect(next).toContain("section=monastery");
    const second = await readable(await web.http.get(next!, from()));
    expect(second).toContain("First page");
    expect(second).not.toContain("Next page");
  });

  it("answers any query string with 200 or 400, never a 500, and refuses a page link that is no cursor", async () => {
    const headers = from();
    const hostile = ["NEAR(a b", '"unbalanced', "*", "-", ":", "a:b", "' OR 1=1; --", "🙂 東京 Москва", "%", "_", "\\", "a & b | !c"];
    for (const query of hostile) expect((await search(query, headers)).status, query).toBe(200);
    // NUL is refused by the site's front before any route (issue 7), as everywhere.
    expect((await search("a\u0000b", headers)).status).toBe(400);
    const long = await search("x".repeat(5000), headers);
    expect(long.status).toBe(400);
    expect(await readable(long)).toContain("Search for at most 200 characters.");
    for (const after of [
      "nope",
      "%%%",
      encodeSearchCursor({ kind: "hit", score: 1, at: "2026-02-30T00:00:00.000Z", id: 5 }),
      Buffer.from('["h",1,"2026-01-01T00:00:00.000Z",2147483648]').toString("base64url"),
    ]) {
      const res = await web.http.get(`/search?q=zebrafinch&after=${encodeURIComponent(after)}`, headers);
      expect(res.status, after).toBe(400);
      expect(await readable(res)).toContain("That page link is not valid.");
    }
    // Unknown filters are ignored, not errors.
    expect((await web.http.get("/search?q=zebrafinch&kind=nope&section=x&virtue=y&sort=z", headers)).status).toBe(200);
  });

  it("limits searches per address: the 61st in a minute is refused with 429", async () => {
    const headers = from();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await search(`word${i}`, headers)).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    const refused = await search("zebrafinch", headers);
    expect(refused.status).toBe(429);
    expect(await readable(refused)).toMatch(/Too many attempts|try again/i);
    // Another address is not held back.
    expect((await search("zebrafinch")).status).toBe(200);
  });

  it("a discussion lists related ones of its section, never itself or a hidden one, and a new one joins its kept page at once", async () => {
    const services = web.site.services;
    const where = await topic(services, { section: "battlefield" });
    const a = await discussion(services, { topic: where, title: "Glacier swimming at dawn", body: "Cold." });
    const b = await discussion(services, { topic: where, title: "Swimming in glacier lakes", body: "Colder." });
    const c = await discussion(services, { topic: where, title: "Knitting patterns for winter", body: "Wool." });
    const d = await discussion(services, { topic: where, title: "Glacier walks, hidden", body: "Ice." });
    const mod = await member(services.db, { role: "moderator" });
    await moderate(services, mod, "hide", "discussion", d.id);
    const path = `/${a.section}/${a.topicId}/${a.id}-${a.slug}`;
    const related = (html: string) => {
      const section = /<section aria-labelledby="related-posts"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
      return [...section.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    };
    const first = await readable(await web.http.get(path));
    expect(first).toContain(">Related Discussions</h2>");
    expect(related(first)).toEqual([`/${b.section}/${b.topicId}/${b.id}-${b.slug}`]);
    expect(related(first).join()).not.toContain(`/${c.id}-`);
    expect((await web.http.get(path)).headers.get("x-page-cache")).toBe("hit");

    // A member starts one through the site: the write names the section's related lists.
    const { cookie } = await joinOverHttp(web, "Gil Glacier");
    const form = `/${a.section}/${a.topicId}/new`;
    const key = /name="submissionKey" value="([^"]+)"/.exec(await (await web.http.get(form, { cookie })).text())![1]!;
    const started = await web.http.post(form, { title: "Dawn glacier swimming club", body: "Join us.", submissionKey: key }, { cookie });
    expect(started.status).toBe(302);
    const after = await readable(await web.http.get(path));
    expect(related(after)).toContain(started.headers.get("location"));

    const q = await question(services, { title: "How do I start glacier swimming safely?" });
    const other = await question(services, { title: "Is glacier swimming good for recovery?" });
    const html = await readable(await web.http.get(`/council/${q.id}`));
    expect(html).toContain(">Related Questions</h2>");
    expect(related(html)).toContain(`/council/${other.id}`);
  });
});
