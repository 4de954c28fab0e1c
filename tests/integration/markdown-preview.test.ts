import { describe, expect, it } from "vitest";
import { PREVIEW_TOO_LONG } from "~/.server/domain/writing/markdown-preview";
import { PREVIEW_LIMIT } from "~/lib/limits";
import { BODY_MAX } from "~/schemas/fields";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { discussion } from "../factories";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp({ demo: false });
const preview = (body: string, cookie?: string) => web.http.post("/markdown/preview", { body }, cookie ? { cookie } : {});

describe(`the Markdown preview on ${ENGINE}`, () => {
  it("renders a member's Markdown with the posts' own renderer, raw HTML as text, and stores nothing", async () => {
    const m = await joinOverHttp(web, "Pia Previewer");
    // A reader's kept page stays kept: a preview changes nothing any page shows.
    await web.http.get("/faq");
    expect((await web.http.get("/faq")).headers.get("x-page-cache")).toBe("hit");
    const before = await web.site.services.db
      .selectFrom("reply")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const res = await preview("**Breathe** and *count*, [see](https://example.org)\n\n<script>alert(1)</script>", m.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { html } = (await res.json()) as { html: string };
    expect(html).toContain("<strong>Breathe</strong>");
    expect(html).toContain("<em>count</em>");
    expect(html).toContain('rel="nofollow ugc noopener noreferrer"');
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script>");
    const after = await web.site.services.db
      .selectFrom("reply")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect((await web.http.get("/faq")).headers.get("x-page-cache")).toBe("hit");
    // Hostile Markdown at the longest a post may be: answered, as a post would be.
    expect((await preview("![".repeat(BODY_MAX / 2), m.cookie)).status).toBe(200);
  });

  it("refuses a visitor, a text longer than a post, a GET and a member past the limit", async () => {
    expect((await preview("Hello")).status).toBe(401);
    const m = await joinOverHttp(web, "Lex Longwriter");
    const long = await preview("x".repeat(BODY_MAX + 1), m.cookie);
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: string }).error).toBe(PREVIEW_TOO_LONG);
    expect((await web.http.get("/markdown/preview", { cookie: m.cookie })).status).toBe(405);
    const answers = [];
    for (let i = 0; i < PREVIEW_LIMIT.max; i++) answers.push((await preview(`Draft ${i}`, m.cookie)).status);
    expect(answers.every((s) => s === 200)).toBe(true);
    const over = await preview("One more", m.cookie);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: string }).error).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
  });

  it("has a Markdown guide, linked from every Markdown box", async () => {
    const guide = await web.http.get("/markdown");
    expect(guide.status).toBe(200);
    expect(await guide.text()).toContain("Writing with Markdown");
    const m = await joinOverHttp(web, "Gus Guide");
    const d = await discussion(web.site.services);
    const page = await readable(await web.http.get(`/${d.section}/${d.topicId}/${d.id}-${d.slug}`, { cookie: m.cookie }));
    expect(page).toMatch(/<a href="\/markdown"[^>]*>Markdown guide<\/a>/);
  });
});
