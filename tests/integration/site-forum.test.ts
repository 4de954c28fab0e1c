import { describe, expect, it } from "vitest";
import { grantXp } from "../factories";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp();
const joinAs = async (name: string) => (await joinOverHttp(web, name)).cookie;

const key = () => crypto.randomUUID();
/** The form's one-time key as the page rendered it. */
async function formKey(path: string, cookie: string) {
  const html = await (await web.http.get(path, { cookie })).text();
  return html.match(/name="submissionKey" value="([^"]+)"/)![1];
}
/** Posts the start-a-discussion form of `topic` with the key it rendered: the answer (a redirect to the discussion). */
const startDiscussion = async (topic: string, title: string, body: string, cookie: string) =>
  web.http.post(`${topic}/new`, { title, body, submissionKey: await formKey(`${topic}/new`, cookie) }, { cookie });

describe(`the forum over HTTP on ${ENGINE}`, () => {
  it("a document carries a reply's HTML once, in its markup; a client navigation's .data carries it", async () => {
    const cy = await joinAs("Cy Forum");
    const dee = await joinAs("Dee Forum");
    const topic = "/monastery/breath-and-stillness";
    const started = await startDiscussion(topic, "Where the hydration data goes", "Opening post.", cy);
    const path = started.headers.get("location")!;
    const marker = `hydrate-once-${Date.now()}`;
    await web.http.post(path, { intent: "reply", body: `A reply with **${marker}** in it.`, submissionKey: await formKey(path, dee) }, { cookie: dee });

    // The page's JSON-LD for search engines quotes the reply's text on purpose (issue 30); the
    // HTML and the hydration data are what carry it once.
    const occurrences = (text: string) => text.replace(/<script\b[^>]*type="application\/ld\+json"[^>]*>[\s\S]*?<\/script>/g, "").split(marker).length - 1;
    const html = await (await web.http.get(path)).text();
    expect(html).toContain(`<strong>${marker}</strong>`);
    expect(occurrences(html)).toBe(1);
    expect(html.split(marker).length - 1, "and once more as plain text in the JSON-LD").toBe(2);
    // Signed in as the author, the Markdown source comes too (for the edit form), but not the HTML twice.
    expect(occurrences(await (await web.http.get(path, { cookie: dee })).text())).toBe(2);
    const data = await (await web.http.get(`${path}.data`)).text();
    expect(data).toContain(`<strong>${marker}</strong>`);
  });

  it("a member joins a topic, starts a discussion, another replies, the author edits and deletes", async () => {
    const ada = await joinAs("Ada Forum");
    const bo = await joinAs("Bo Forum");
    const topic = "/monastery/breath-and-stillness";

    const before = await readable(await web.http.get(topic));
    const members = Number(before.match(/· (\d+) members/)![1]);
    expect((await web.http.post(topic, { intent: "join" }, { cookie: ada })).status).toBe(302);
    expect(await readable(await web.http.get(topic, { cookie: ada }))).toContain(`· ${members + 1} members`);
    expect(await readable(await web.http.get(topic, { cookie: ada }))).toContain("Leave Topic");

    const started = await startDiscussion(topic, "Counting breaths on the train", "Ten breaths, **then** start again.", ada);
    expect(started.status).toBe(302);
    const path = started.headers.get("location")!;
    expect(path).toMatch(/^\/monastery\/breath-and-stillness\/\d+-counting-breaths-on-the-train$/);

    const page = await readable(await web.http.get(path));
    expect(page).toContain("<title>Counting breaths on the train · Breath and Stillness</title>");
    expect(page).toContain(`<link rel="canonical" href="http://localhost:3000${path}"/>`);
    expect(page).toContain("<strong>then</strong>");
    expect(page).toContain("Sign in to reply");

    const replied = await web.http.post(path, { intent: "reply", body: "I do this on the bus.", submissionKey: await formKey(path, bo) }, { cookie: bo });
    expect(replied.status).toBe(302);
    expect(replied.headers.get("location")).toMatch(new RegExp(`^${path}\\?page=last#reply-\\d+$`));
    const replyId = replied.headers.get("location")!.split("#reply-")[1];
    expect(await readable(await web.http.get(path))).toContain("I do this on the bus.");

    // Ada may not edit Bo's reply.
    const denied = await web.http.post(path, { intent: "edit", kind: "reply", id: replyId, body: "hijacked" }, { cookie: ada });
    expect(denied.status).toBe(403);

    const edited = await web.http.post(
      path,
      { intent: "edit", kind: "discussion", title: "Counting breaths on the tram", body: "Edited body." },
      { cookie: ada },
    );
    expect(edited.status).toBe(302);
    const newPath = edited.headers.get("location")!;
    expect(newPath).toMatch(/counting-breaths-on-the-tram$/);
    const old = await web.http.get(path);
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe(newPath);
    const after = await readable(await web.http.get(newPath));
    expect(after).toContain("edited");
    expect(after).toContain("Edited body.");

    expect((await web.http.post(newPath, { intent: "delete", kind: "discussion" }, { cookie: ada })).status).toBe(302);
    const deleted = await readable(await web.http.get(newPath));
    expect(deleted).toContain("[deleted]");
    expect(deleted).toContain("I do this on the bus.");
  });

  it("offers an initiate below the topic rank the section's topics to start a discussion in", async () => {
    const eve = await joinAs("Eve Initiate");
    const page = await readable(await web.http.get("/battlefield/new", { cookie: eve }));
    expect(page).toContain("Not yet");
    expect(page).toContain("Start a discussion in a topic");
    expect(page).toMatch(/<a [^>]*href="\/battlefield\/strength-training\/new"[^>]*>Start a discussion in Strength Training<\/a>/);
    expect(page).not.toContain('href="/monastery/breath-and-stillness/new"');
    // Each link leads to a form the initiate may use.
    expect((await web.http.get("/battlefield/strength-training/new", { cookie: eve })).status).toBe(200);
  });

  it("a fresh discussion invites its first reply: the form for members, a sign-in link for visitors", async () => {
    const fay = await joinAs("Fay Fresh");
    const topic = "/monastery/breath-and-stillness";
    const started = await startDiscussion(topic, "A discussion nobody has answered", "Opening post.", fay);
    const path = started.headers.get("location")!;
    const member = await readable(await web.http.get(path, { cookie: fay }));
    expect(member).toContain("0 Replies");
    expect(member).toContain('No replies yet. <a href="#reply-body"');
    expect(member).toContain("Be the first to reply.");
    expect(member).toContain('id="reply-body"');
    const visitor = await readable(await web.http.get(path));
    expect(visitor).toContain(`href="/signin?redirectTo=${encodeURIComponent(path)}"`);
    expect(visitor).toContain("Sign in to be the first to reply.");

    await web.http.post(path, { intent: "reply", body: "The first reply.", submissionKey: await formKey(path, fay) }, { cookie: fay });
    const answered = await readable(await web.http.get(path));
    expect(answered).toContain("1 Reply");
    expect(answered).not.toContain("No replies yet.");
  });

  it("sends a visitor who tries to post to sign-in, and creates nothing", async () => {
    const res = await web.http.post("/monastery/breath-and-stillness/new", { title: "Visitor post attempt", body: "x", submissionKey: key() });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/signin\?redirectTo=/);
    const rows = await web.site.services.db.selectFrom("discussion").select("id").where("title", "=", "Visitor post attempt").execute();
    expect(rows).toHaveLength(0);
  });

  it("answers titles and bodies out of bounds with the messages, and creates nothing", async () => {
    const cookie = await joinAs("Cy Bounds");
    const res = await web.http.post("/battlefield/strength-training/new", { title: "Short", body: "x".repeat(20_001), submissionKey: key() }, { cookie });
    expect(res.status).toBe(400);
    const html = await readable(res);
    expect(html).toContain("Title must be at least 8 characters");
    expect(html).toContain("Post cannot exceed 20,000 characters");
  });

  it("renders script in Markdown inert", async () => {
    const cookie = await joinAs("Eve Script");
    const started = await web.http.post(
      "/battlefield/strength-training/new",
      { title: "Harmless looking title", body: '<script>alert("x")</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>', submissionKey: key() },
      { cookie },
    );
    const html = await (await web.http.get(started.headers.get("location")!)).text();
    expect(html).not.toContain('<script>alert("x")</script>');
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain("&lt;script&gt;");
  });

  it("a topic page with three hostile Markdown posts of 20,000 characters answers 200 with their excerpts", async () => {
    const cookie = await joinAs("Hostile Writer");
    const { db } = web.site.services;
    const writer = await db.selectFrom("member").select("id").where("name", "=", "Hostile Writer").executeTakeFirstOrThrow();
    await grantXp(db, writer.id, 200);
    const created = await web.http.post("/monastery/new", { title: "Bracket Storms", description: "Posts that are all brackets." }, { cookie });
    expect(created.status).toBe(302);
    const topic = created.headers.get("location")!;
    // Shapes on which the old excerpt regexes rescanned the rest of the body from every `[`.
    const posts = [
      { title: "Images that never close", body: "![".repeat(10_000), excerpt: `${"![".repeat(80)}…` },
      { title: "Brackets that never close", body: "[".repeat(20_000), excerpt: `${"[".repeat(160)}…` },
      { title: "Links that never close", body: "[a](".repeat(5_000), excerpt: `${"[a](".repeat(40)}…` },
    ];
    const paths: string[] = [];
    for (const post of posts) {
      const started = await web.http.post(`${topic}/new`, { title: post.title, body: post.body, submissionKey: key() }, { cookie });
      expect(started.status).toBe(302);
      paths.push(started.headers.get("location")!);
    }
    const res = await web.http.get(topic);
    expect(res.status).toBe(200);
    const page = await readable(res);
    for (const post of posts) expect(page).toContain(`>${post.excerpt}</p>`);
    // Made once when written, and kept with the post.
    const stored = await db.selectFrom("discussion").select(["title", "excerpt"]).where("topic_id", "=", topic.split("/")[2]).orderBy("id").execute();
    expect(stored).toEqual(posts.map((p) => ({ title: p.title, excerpt: p.excerpt })));
    for (const [i, path] of paths.entries()) {
      const discussion = await web.http.get(path);
      expect(discussion.status).toBe(200);
      expect(await readable(discussion)).toContain(`<meta name="description" content="${posts[i].excerpt}"/>`);
    }
  });

  it("answers unknown topics and discussions with 404 and tampered cursors with 400", async () => {
    expect((await web.http.get("/monastery/no-such-topic")).status).toBe(404);
    expect((await web.http.get("/monastery/breath-and-stillness/999999-nope")).status).toBe(404);
    expect((await web.http.get("/monastery/breath-and-stillness/not-a-number")).status).toBe(404);
    expect((await web.http.get("/tavern/breath-and-stillness")).status).toBe(404);
    expect((await web.http.get("/monastery/breath-and-stillness?after=garbage")).status).toBe(400);
    const d = await web.site.services.db
      .selectFrom("discussion")
      .select(["id", "slug"])
      .where("topic_id", "=", "breath-and-stillness")
      .executeTakeFirstOrThrow();
    expect((await web.http.get(`/monastery/breath-and-stillness/${d.id}-${d.slug}?after=12abc`)).status).toBe(400);
    // The right discussion under the wrong topic or section: one canonical address.
    const moved = await web.http.get(`/battlefield/strength-training/${d.id}`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`/monastery/breath-and-stillness/${d.id}-${d.slug}`);
  });

  it("a topic with more than 20 discussions pages by cursor", async () => {
    const cookie = await joinAs("Pager Person");
    const pager = await web.site.services.db.selectFrom("member").select("id").where("name", "=", "Pager Person").executeTakeFirstOrThrow();
    await grantXp(web.site.services.db, pager.id, 200);
    const created = await web.http.post("/battlefield/new", { title: "Pagination Drills", description: "Many, many discussions." }, { cookie });
    expect(created.status).toBe(302);
    const topic = created.headers.get("location")!;
    expect(topic).toBe("/battlefield/pagination-drills");
    for (let i = 0; i < 22; i++) {
      expect((await web.http.post(`${topic}/new`, { title: `Drill number ${i}`, body: "x", submissionKey: key() }, { cookie })).status).toBe(302);
    }
    const first = await readable(await web.http.get(topic));
    expect(first).toContain("Drill number 21");
    expect(first).not.toContain("Drill number 1<");
    const older = first.match(/href="([^"]*\?after=[^"]+)"/)![1].replaceAll("&amp;", "&");
    const second = await readable(await web.http.get(older));
    expect(second).toContain("Drill number 1<");
    expect(second).toContain("Drill number 0<");
    expect(second).not.toContain("Drill number 21");
  });
});

describe(`moderation over HTTP on ${ENGINE}`, () => {
  it("a moderator hides and locks; a member may not; hidden posts are gone for members", async () => {
    const modCookie = await joinAs("Mo Derator");
    await web.site.services.db.updateTable("member").set({ role: "moderator" }).where("name", "=", "Mo Derator").execute();
    const member = await joinAs("Plain Member");
    const d = await web.site.services.db
      .selectFrom("discussion")
      .select(["id", "slug", "topic_id"])
      .where("title", "=", "Three questions for the evening review")
      .executeTakeFirstOrThrow();
    const path = `/monastery/${d.topic_id}/${d.id}-${d.slug}`;

    expect((await web.http.post(path, { intent: "moderate", kind: "discussion", action: "lock" }, { cookie: member })).status).toBe(403);
    expect((await web.http.post(path, { intent: "moderate", kind: "discussion", action: "lock" }, { cookie: modCookie })).status).toBe(302);
    const locked = await readable(await web.http.get(path, { cookie: member }));
    expect(locked).toContain("This discussion is locked. No new replies can be posted.");
    const refused = await web.http.post(path, { intent: "reply", body: "let me in", submissionKey: key() }, { cookie: member });
    expect(refused.status).toBe(403);

    expect((await web.http.post(path, { intent: "moderate", kind: "discussion", action: "hide" }, { cookie: modCookie })).status).toBe(302);
    expect((await web.http.get(path, { cookie: member })).status).toBe(404);
    const asModerator = await readable(await web.http.get(path, { cookie: modCookie }));
    expect(asModerator).toContain("Hidden by a moderator");
    expect(asModerator).toContain("Restore");

    const log = await web.site.services.db.selectFrom("moderation_action").select("action").where("subject_id", "=", d.id).orderBy("id").execute();
    expect(log.map((l) => l.action)).toEqual(["lock", "hide"]);
  });
});
