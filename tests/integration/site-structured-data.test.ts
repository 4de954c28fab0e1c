import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { acceptAnswer } from "~/.server/domain/council/council-service";
import { postReply } from "~/.server/domain/forum/forum-service";
import { eventStructuredData, plainText, structuredData } from "~/.server/domain/discovery/structured-data";
import { answer, creation, discussion, member, question } from "../factories";
import { ENGINE } from "./test-services";
import { siteOverHttp } from "./site-server";

const web = siteOverHttp();
const BASE = "http://localhost:3000";
// Member text that would end a <script> element, or a JavaScript string, if it were not escaped.
const HOSTILE = "Breathe </script><script>alert(1)</script> & <!-- stay \u2028 calm \u2029";

/** The page's one JSON-LD block, parsed, and the page's text. */
async function jsonLd(path: string) {
  const res = await web.http.get(path);
  expect(res.status, path).toBe(200);
  const html = await res.text();
  const blocks = [...html.matchAll(/<script\b[^>]*\btype="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)];
  expect(blocks.length, `${path}: one JSON-LD block`).toBe(1);
  const text = blocks[0]![1]!;
  expect(text).not.toMatch(/[<>\u2028\u2029]/);
  return { data: JSON.parse(text) as Record<string, any>, html };
}

describe(`structured data for search engines, on ${ENGINE}`, () => {
  it("the home page names the Organization and the WebSite", async () => {
    const { data } = await jsonLd("/");
    expect(data["@context"]).toBe("https://schema.org");
    const types = data["@graph"].map((n: { "@type": string }) => n["@type"]);
    expect(types).toEqual(["Organization", "WebSite"]);
    for (const node of data["@graph"]) {
      expect(node.name).toBe("Inner Peace. Outer Strength.");
      expect(node.url).toBe(`${BASE}/`);
    }
    // Its search box leads to /search, which answers the template filled in.
    const action = data["@graph"][1].potentialAction;
    expect(action["@type"]).toBe("SearchAction");
    expect(action["query-input"]).toBe("required name=search_term_string");
    const template: string = action.target.urlTemplate;
    expect(template).toBe(`${BASE}/search?q={search_term_string}`);
    const res = await web.http.get(template.slice(BASE.length).replace("{search_term_string}", "stillness"));
    expect(res.status).toBe(200);
  });

  it("a question is a QAPage with its accepted and suggested answers, and member text cannot break out", async () => {
    const services = web.site.services;
    const asked = await question(services, { title: "How long should I sit?", body: `Twenty minutes? ${HOSTILE}` });
    const first = await answer(services, asked.id, { body: "Start with **five** minutes." });
    const second = await answer(services, asked.id, { body: `Ten, then more. ${HOSTILE}` });
    expect((await acceptAnswer(services, asked.asker, asked.id, first.id)).ok).toBe(true);

    const { data, html } = await jsonLd(`/council/${asked.id}`);
    expect(html).not.toContain("<script>alert(1)");
    expect(data["@type"]).toBe("QAPage");
    const q = data.mainEntity;
    expect(q["@type"]).toBe("Question");
    expect(q.name).toBe("How long should I sit?");
    // Line and paragraph separators are whitespace in text, collapsed like the rest.
    expect(q.text).toBe("Twenty minutes? Breathe </script><script>alert(1)</script> & <!-- stay calm");
    expect(q.answerCount).toBe(2);
    expect(q.datePublished).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(q.author).toEqual({ "@type": "Person", name: asked.asker.name, url: `${BASE}/members/${asked.asker.handle}` });
    expect(q.acceptedAnswer).toMatchObject({
      "@type": "Answer",
      text: "Start with five minutes.",
      upvoteCount: 0,
      url: `${BASE}/council/${asked.id}#answer-${first.id}`,
    });
    expect(q.suggestedAnswer).toHaveLength(1);
    expect(q.suggestedAnswer[0]).toMatchObject({ "@type": "Answer", url: `${BASE}/council/${asked.id}#answer-${second.id}` });
    expect(q.suggestedAnswer[0].text).toContain("alert(1)");
    // Carried once: in its element, not again in the page's hydration data.
    expect(html.split("QAPage").length - 1).toBe(1);
  });

  it("a discussion is a DiscussionForumPosting with its replies as comments and its reply count", async () => {
    const services = web.site.services;
    const started = await discussion(services, { title: "Cold showers", body: `Every morning. ${HOSTILE}` });
    const replier = await member(services.db);
    const reply = await postReply(services, replier, started.id, { body: "I do them *too*.", submissionKey: randomUUID() });
    expect(reply.ok).toBe(true);
    const path = `/${started.section}/${started.topicId}/${started.id}-${started.slug}`;

    const { data, html } = await jsonLd(path);
    expect(html).not.toContain("<script>alert(1)");
    expect(data["@type"]).toBe("DiscussionForumPosting");
    expect(data.headline).toBe("Cold showers");
    expect(data.url).toBe(BASE + path);
    expect(data.text).toContain("</script><script>alert(1)</script>");
    expect(data.author.name).toBe(started.author.name);
    expect(data.interactionStatistic).toContainEqual({
      "@type": "InteractionCounter",
      interactionType: "https://schema.org/CommentAction",
      userInteractionCount: 1,
    });
    expect(data.comment).toHaveLength(1);
    expect(data.comment[0]).toMatchObject({ "@type": "Comment", text: "I do them too.", author: { "@type": "Person", name: replier.name } });
    expect(data.comment[0].url).toBe(`${BASE}${path}#reply-${reply.ok ? reply.value.id : 0}`);
  });

  it("a creation is a DiscussionForumPosting with its likes and comments counted", async () => {
    const made = await creation(web.site.services.db, { title: "A poem at dawn", body: "Light *on* water." });
    const { data } = await jsonLd(`/forge/${made.id}`);
    expect(data).toMatchObject({
      "@type": "DiscussionForumPosting",
      headline: "A poem at dawn",
      text: "Light on water.",
      url: `${BASE}/forge/${made.id}`,
      comment: [],
    });
    expect(
      data.interactionStatistic.map((c: { interactionType: string; userInteractionCount: number }) => [c.interactionType, c.userInteractionCount]),
    ).toEqual([
      ["https://schema.org/CommentAction", 0],
      ["https://schema.org/LikeAction", 0],
    ]);
  });

  it("an event is an Event with its dates, where it happens, its status and its host; a cancelled one says so", async () => {
    const row = await web.site.services.db
      .selectFrom("event")
      .select(["id", "title", "starts_at", "online_url", "place"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const { data } = await jsonLd(`/events/${row.id}`);
    expect(data).toMatchObject({ "@type": "Event", name: row.title, url: `${BASE}/events/${row.id}`, eventStatus: "https://schema.org/EventScheduled" });
    expect(data.startDate).toBe(new Date(row.starts_at).toISOString());
    expect(Date.parse(data.endDate)).toBeGreaterThan(Date.parse(data.startDate));
    expect(data.location).toBeDefined();
    expect(data.eventAttendanceMode).toMatch(/^https:\/\/schema\.org\/(Mixed|Online|Offline)EventAttendanceMode$/);
    expect(data.organizer["@type"]).toBe("Person");
    const facts = { id: 1, title: "T", descriptionHtml: "<p>D</p>", startsAt: data.startDate, endsAt: data.endDate, host: { name: "H", handle: "h" } };
    const cancelled = JSON.parse(eventStructuredData(BASE, { ...facts, onlineUrl: "https://meet.example/x", place: "Park", cancelled: true }).html);
    expect(cancelled.eventStatus).toBe("https://schema.org/EventCancelled");
    expect(cancelled.eventAttendanceMode).toBe("https://schema.org/MixedEventAttendanceMode");
    expect(cancelled.location).toEqual([
      { "@type": "Place", name: "Park", address: "Park" },
      { "@type": "VirtualLocation", url: "https://meet.example/x" },
    ]);
  });

  it("a profile is a ProfilePage about its Person, with how much they wrote, and a hostile name cannot break out", async () => {
    const author = await member(web.site.services.db, { name: `Ana ${HOSTILE}`.slice(0, 80) });
    await web.site.services.db
      .updateTable("member")
      .set({ bio: `Bio ${HOSTILE}` })
      .where("id", "=", author.id)
      .execute();
    await discussion(web.site.services, { author });
    const { data, html } = await jsonLd(`/members/${author.handle}`);
    expect(data).toMatchObject({ "@context": "https://schema.org", "@type": "ProfilePage", url: `${BASE}/members/${author.handle}` });
    expect(Date.parse(data.dateCreated)).not.toBeNaN();
    expect(data.mainEntity).toMatchObject({ "@type": "Person", name: author.name, alternateName: `@${author.handle}`, description: `Bio ${HOSTILE}` });
    expect(data.mainEntity.interactionStatistic).toEqual({
      "@type": "InteractionCounter",
      interactionType: "https://schema.org/WriteAction",
      userInteractionCount: 1,
    });
    expect(html).not.toContain("<script>alert(1)");
  });

  it("JSON-LD text escapes what would end its element or break a JavaScript reader, and parses back", () => {
    const value = { text: "a\u2028b\u2029c </script> <!-- & >" };
    const { html } = structuredData(value);
    expect(html).toBe('{"text":"a\\u2028b\\u2029c \\u003c/script\\u003e \\u003c!-- \\u0026 \\u003e"}');
    expect(JSON.parse(html)).toEqual(value);
  });

  it("plain text drops tags, decodes entities, collapses space and stops at the limit", () => {
    expect(plainText("<p>a &amp; b</p>\n<ul><li>c&lt;d</li></ul>")).toBe("a & b c<d");
    expect(plainText(`<p>${"word ".repeat(200)}</p>`, 20)).toBe("word word word word…");
  });
});
