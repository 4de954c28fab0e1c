import { describe, expect, it } from "vitest";
import { eventDay } from "~/.server/db/demo-content";
import { demoSoundWav } from "~/.server/db/demo-sound";
import { formatInZone } from "~/lib/time-zones";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";

/** Labels that said something else than what they show, and demo content that said what was not so (issue 26 item 10). */

const web = siteOverHttp();

const weekdayIn = (at: Date, zone: string) => new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: zone }).format(at);

describe(`labels and demo content say what is so, on ${ENGINE}`, () => {
  it("a topic card says its posts are discussions and replies, each counted from the rows", async () => {
    const { db } = web.site.services;
    const html = await readable(await web.http.get("/monastery"));
    const topics = await db.selectFrom("topic").select(["id", "title"]).where("section", "=", "monastery").execute();
    expect(topics).toHaveLength(6);
    for (const topic of topics) {
      const discussions = await db.selectFrom("discussion").select("id").where("topic_id", "=", topic.id).execute();
      const replies = discussions.length
        ? (
            await db
              .selectFrom("reply")
              .select("id")
              .where(
                "discussion_id",
                "in",
                discussions.map((d) => d.id),
              )
              .execute()
          ).length
        : 0;
      const card = html.slice(html.indexOf(`>${topic.title}</h3>`), html.indexOf(`aria-label="Explore ${topic.title}"`));
      const d = discussions.length;
      expect(card, topic.title).toContain(
        `<span>${d + replies} ${d + replies === 1 ? "post" : "posts"}</span> (${d} ${d === 1 ? "discussion" : "discussions"}, ${replies} ${replies === 1 ? "reply" : "replies"})`,
      );
    }
    // The demo's case from the issue: one discussion listed, "5 posts" beside it.
    expect(html).toContain("<span>5 posts</span> (1 discussion, 4 replies)");
    // The topic's own page, whose list shows that one discussion, says the same.
    const topicPage = await readable(await web.http.get("/monastery/morning-meditation"));
    expect(topicPage).toContain("· 5 posts (1 discussion, 4 replies) · 5 members");
  });

  it("the Council says its topics are the virtues, and tells an advisor's rank from the path they are verified for", async () => {
    const html = await readable(await web.http.get("/council"));
    expect(html).toContain("Browse by Topic");
    expect(html).toContain('aria-describedby="browse-note"');
    expect(html).toContain('id="browse-note"');
    expect(html).toContain("Topics are the six virtues: choose one to see only the questions tagged with it.");
    expect(html).toContain("Each advisor is verified to guide seekers on one path, monk or warrior.");
    expect(html.match(/>Rank </g)).toHaveLength(3);
    // Mei Tanaka is a monk advisor whose XP made her a Warlord: both read as what they are.
    const mei = html.slice(html.indexOf(">Mei Tanaka</a>"), html.indexOf("answered</p>", html.indexOf(">Mei Tanaka</a>")));
    expect(mei).toMatch(/>Rank <[^]*>Warlord</);
    expect(mei).toContain("Verified monk advisor");
    expect(html).not.toMatch(/Verified (monk|warrior)</);
  });

  it("the Saturday run is on a Saturday where it is run, at the time it says", async () => {
    const event = await web.site.services.db
      .selectFrom("event")
      .select(["id", "starts_at", "time_zone"])
      .where("title", "=", "Saturday trail run at a talking pace")
      .executeTakeFirstOrThrow();
    const starts = new Date(event.starts_at);
    expect(weekdayIn(starts, event.time_zone)).toBe("Saturday");
    expect(starts.getTime()).toBeGreaterThan(Date.now());
    expect(starts.getTime() - Date.now()).toBeLessThanOrEqual(8 * 86_400_000);
    const page = await readable(await web.http.get(`/events/${event.id}`));
    expect(formatInZone(starts, event.time_zone)).toMatch(/^Sat, .* 08:30 /);
    expect(page).toContain(formatInZone(starts, event.time_zone));
  });

  it("a weekday event falls on the next such day in its own zone, from any reference moment", () => {
    // Tuesday 1 Dec 2026, 03:00 UTC is still Monday evening in Denver and already Tuesday in Tokyo.
    const lateMonday = new Date("2026-12-01T03:00:00Z");
    expect(eventDay(lateMonday, { weekday: 6 }, "America/Denver")).toBe("2026-12-05");
    expect(eventDay(lateMonday, { weekday: 1 }, "America/Denver")).toBe("2026-12-07");
    expect(eventDay(lateMonday, { weekday: 2 }, "America/Denver")).toBe("2026-12-01");
    expect(eventDay(lateMonday, { weekday: 2 }, "Asia/Tokyo")).toBe("2026-12-08");
    // On a Saturday the run is the next one, still to come.
    expect(eventDay(new Date("2026-12-05T12:00:00Z"), { weekday: 6 }, "America/Denver")).toBe("2026-12-12");
    // Across a change of clocks (Denver, 8 March 2026) and of month and year.
    expect(eventDay(new Date("2026-03-06T18:00:00Z"), { weekday: 6 }, "America/Denver")).toBe("2026-03-07");
    expect(eventDay(new Date("2026-03-08T18:00:00Z"), { weekday: 6 }, "America/Denver")).toBe("2026-03-14");
    expect(eventDay(new Date("2026-12-30T18:00:00Z"), { weekday: 6 }, "America/Denver")).toBe("2027-01-02");
    for (let day = 0; day < 14; day++) {
      const now = new Date(Date.UTC(2026, 10, 20 + day, (day * 5) % 24));
      const date = eventDay(now, { weekday: 6 }, "America/Denver");
      expect(new Date(`${date}T12:00:00Z`).getUTCDay()).toBe(6);
    }
    expect(eventDay(lateMonday, { daysAhead: 3 }, "Asia/Tokyo")).toBe("2026-12-04");
  });

  it("the demo Music creation plays a real sound, stored as an upload is", async () => {
    const creation = await web.site.services.db.selectFrom("creation").select(["id", "audio_name"]).where("type", "=", "music").executeTakeFirstOrThrow();
    expect(creation.audio_name).not.toBeNull();
    const page = await readable(await web.http.get(`/forge/${creation.id}`));
    const src = page.match(/<audio[^>]* src="([^"]+)"/)?.[1];
    expect(src).toBeDefined();
    const audio = await web.http.get(src!);
    expect(audio.status).toBe(200);
    expect(audio.headers.get("content-type")).toBe("audio/wav");
    expect(Buffer.from(await audio.arrayBuffer()).equals(demoSoundWav())).toBe(true);
  });
});
