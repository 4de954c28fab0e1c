import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { editForumPost, moderate } from "~/.server/domain/forum/forum-service";
import { wrapWords } from "~/.server/domain/discovery/previews";
import { withSocialMeta } from "~/.server/social-meta";
import { discussion, member, question } from "../factories";
import { ENGINE } from "./test-services";
import { siteOverHttp } from "./site-server";

const web = siteOverHttp();
const BASE = "http://localhost:3000";

/** The page's social tags, by property or name. */
async function socialTags(path: string) {
  const html = await (await web.http.get(path)).text();
  const head = html.slice(0, html.indexOf("</head>"));
  const tags = new Map<string, string>();
  for (const m of head.matchAll(/<meta (?:property|name)="((?:og|twitter):[a-z_:]+)" content="([^"]*)"/g)) tags.set(m[1]!, m[2]!);
  return { tags, head };
}

async function png(path: string) {
  const res = await web.http.get(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  return sharp(Buffer.from(await res.arrayBuffer())).metadata();
}

describe(`link previews on ${ENGINE}`, () => {
  it("every page names its title, description, address and a picture for Open Graph and Twitter", async () => {
    for (const path of ["/", "/council", "/forge", "/members", "/events", "/ranks", "/faq"]) {
      const { tags, head } = await socialTags(path);
      const title = /<title>([^<]*)<\/title>/.exec(head)![1]!;
      expect(tags.get("og:title"), path).toBe(title.replaceAll('"', "&quot;"));
      expect(tags.get("twitter:title"), path).toBe(tags.get("og:title"));
      expect(tags.get("og:site_name")).toBe("Inner Peace. Outer Strength.");
      expect(tags.get("og:url"), path).toBe(/<link rel="canonical" href="([^"]*)"/.exec(head)![1]);
      expect(tags.get("og:description"), path).toBe(/<meta name="description" content="([^"]*)"/.exec(head)![1]);
      expect(tags.get("twitter:card")).toBe("summary_large_image");
      expect(tags.get("og:image")!.startsWith(`${BASE}/previews/site-`), path).toBe(true);
    }
    const site = (await socialTags("/")).tags.get("og:image")!;
    expect(await png(site.slice(BASE.length))).toMatchObject({ format: "png", width: 1200, height: 630 });
  });

  it("a discussion and a question have pictures of their own, a new one after an edit; a hidden post has none", async () => {
    const d = await discussion(web.site.services, { title: 'Cold "plunges" & <warm> tea' });
    const path = `/${d.section}/${d.topicId}/${d.id}-${d.slug}`;
    const { tags } = await socialTags(path);
    expect(tags.get("og:type")).toBe("article");
    expect(tags.get("og:title")).toContain("Cold &quot;plunges&quot; &amp; &lt;warm&gt; tea");
    const image = tags.get("og:image")!;
    expect(image).toMatch(new RegExp(`^${BASE}/previews/discussion-${d.id}-[0-9a-f]{12}\\.png$`));
    expect(tags.get("twitter:image")).toBe(image);
    expect(await png(image.slice(BASE.length))).toMatchObject({ width: 1200, height: 630 });

    // An edit of the title is a new picture at a new address; the old one is no more.
    const edited = await editForumPost(web.site.services, d.author, "discussion", d.id, { title: "Cold plunges and warm tea", body: "Edited." });
    expect(edited.ok).toBe(true);
    const slug = (await web.site.services.db.selectFrom("discussion").select("slug").where("id", "=", d.id).executeTakeFirstOrThrow()).slug;
    const newer = (await socialTags(`/${d.section}/${d.topicId}/${d.id}-${slug}`)).tags.get("og:image")!;
    expect(newer).not.toBe(image);
    expect((await web.http.get(image.slice(BASE.length))).status).toBe(404);
    expect(await png(newer.slice(BASE.length))).toMatchObject({ width: 1200, height: 630 });

    const q = await question(web.site.services, { title: "How long should a cold plunge last?" });
    const questionImage = (await socialTags(`/council/${q.id}`)).tags.get("og:image")!;
    expect(questionImage).toMatch(new RegExp(`/previews/question-${q.id}-[0-9a-f]{12}\\.png$`));

    // Hidden: the page is no one's to share, and its picture is gone.
    const mod = await member(web.site.services.db, { role: "moderator" });
    await moderate(web.site.services, mod, "hide", "discussion", d.id);
    expect((await web.http.get(newer.slice(BASE.length))).status).toBe(404);
  });

  it("draws only a current picture's name: made-up names, old versions and other posts' hashes are 404s", async () => {
    const d = await discussion(web.site.services, { title: "Breathing ladders" });
    const image = (await socialTags(`/${d.section}/${d.topicId}/${d.id}-${d.slug}`)).tags.get("og:image")!.slice(BASE.length);
    const hash = /-([0-9a-f]{12})\.png$/.exec(image)![1]!;
    for (const name of [
      `discussion-${d.id}-000000000000.png`,
      `discussion-${d.id + 1000}-${hash}.png`,
      `question-${d.id}-${hash}.png`,
      `discussion-${d.id}-${hash}.jpg`,
      "discussion-99999999999-000000000000.png",
      "..%2F..%2Fetc%2Fpasswd",
      "site.png",
    ]) {
      expect((await web.http.get(`/previews/${name}`)).status, name).toBe(404);
    }
  });

  it("adds the tags to a head once, its inline stylesheet left as it was, and wraps a long title in at most three lines", () => {
    const social = (html: string) => withSocialMeta(Buffer.from(html), "Site", "https://x.example/p.png").toString("utf8");
    const css = 'a::before{content:"<title>Not this</title> · ✓"}';
    const html = `<html><head><style id="site-css">${css}</style><title>A &amp; "B" · ✓</title><meta name="description" content="D"/><link rel="canonical" href="https://x.example/a"/></head><body>é</body></html>`;
    const out = social(html);
    expect(out).toContain('<meta property="og:title" content="A &amp; &quot;B&quot; · ✓" data-social=""/>');
    expect(out).toContain('<meta property="og:description" content="D" data-social=""/>');
    expect(out).toContain('<meta property="og:url" content="https://x.example/a" data-social=""/>');
    expect(out.indexOf("og:title")).toBeLessThan(out.indexOf("</head>"));
    expect(out.replace(/<meta [^>]*data-social=""\/>/g, "")).toBe(html);
    expect(social("<p>no head</p>")).toBe("<p>no head</p>");
    expect(social("<head><style>x</style></head>")).toBe("<head><style>x</style></head>");
    expect(wrapWords("one two three four five six seven eight nine ten", 10, 3)).toEqual(["one two", "three four", "five six…"]);
    expect(wrapWords("x".repeat(50), 10, 3)).toEqual(["xxxxxxxxx…"]);
  });
});
