import { describe, expect, it } from "vitest";
import { postReply } from "~/.server/domain/forum/forum-service";
import { OWN_REACTION_MESSAGE } from "~/.server/domain/reactions/reaction-service";
import { rankById } from "~/lib/ranks";
import { discussion, member } from "../factories";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp, viewerOf } from "./site-join";

const web = siteOverHttp();

async function discussionWithReply() {
  const d = await discussion(web.site.services, { title: "Stillness before the squat", body: "Breathe first." });
  const author = await member(web.site.services.db, { xp: rankById("acolyte").minXp, name: "Rafa Replier" });
  const posted = await postReply(web.site.services, author, d.id, { body: "Three breaths, then lift.", submissionKey: crypto.randomUUID() });
  if (!posted.ok) throw new Error("reply");
  return { d, replyId: posted.value.id, path: `/${d.section}/${d.topicId}/${d.id}-${d.slug}`, author };
}

const countOf = async (replyId: number) =>
  Number(
    (
      await web.site.services.db
        .selectFrom("reaction_count")
        .select("count")
        .where("kind", "=", "reply")
        .where("post_id", "=", replyId)
        .where("reaction", "=", "thanks")
        .executeTakeFirst()
    )?.count ?? 0,
  );

describe(`reactions over HTTP, on ${ENGINE}`, () => {
  it("a new member reacts to a reply with a plain form post and comes back to it; a visitor's kept page shows the new count", async () => {
    const { replyId, path } = await discussionWithReply();
    const m = await joinOverHttp(web, "Nia Newcomer");
    // A visitor's page, kept (the second visit is a hit): no buttons.
    await web.http.get(path);
    const kept = await web.http.get(path);
    expect(kept.headers.get("x-page-cache")).toBe("hit");
    expect(await readable(kept)).not.toContain('name="change"');

    const page = await readable(await web.http.get(path, { cookie: m.cookie }));
    expect(page).toContain(`action="/reactions/reply/${replyId}"`);
    expect(page).toMatch(/value="add:thanks" aria-pressed="false"/);

    const back = `${path}#reply-${replyId}`;
    const reacted = await web.http.post(`/reactions/reply/${replyId}`, { change: "add:thanks", redirectTo: back }, { cookie: m.cookie });
    expect(reacted.status).toBe(303);
    expect(reacted.headers.get("location")).toBe(back);
    expect(await countOf(replyId)).toBe(1);
    const after = await readable(await web.http.get(path, { cookie: m.cookie }));
    expect(after).toMatch(/value="remove:thanks" aria-pressed="true"/);

    // The visitor's kept page was dropped by the reaction: it shows the count and who to ask.
    const visitor = await web.http.get(path);
    expect(visitor.headers.get("x-page-cache")).not.toBe("hit");
    const seen = await readable(visitor);
    expect(seen).toMatch(/Thanks<span class="tabular-nums">1<\/span>/);
    expect(seen).toContain(`href="/reactions/reply/${replyId}"`);
    const who = await readable(await web.http.get(`/reactions/reply/${replyId}`));
    expect(who).toContain("Who reacted");
    expect(who).toContain("Nia Newcomer");

    // A client-side post to the .data address is decided the same way.
    const undone = await web.http.post(`/reactions/reply/${replyId}.data`, { change: "remove:thanks", redirectTo: back }, { cookie: m.cookie });
    expect(undone.status).toBeLessThan(400);
    expect(await countOf(replyId)).toBe(0);
  });

  it("refuses what is no reaction with a 4xx and changes nothing; one's own post says why; a visitor is sent to sign in", async () => {
    const { replyId } = await discussionWithReply();
    const m = await joinOverHttp(web, "Hal Hostile");
    const refused: Array<[string, Record<string, string>, number]> = [
      [`/reactions/reply/${replyId}`, { change: "add:love" }, 400],
      [`/reactions/reply/${replyId}`, { change: "toggle:thanks" }, 400],
      [`/reactions/reply/${replyId}`, { change: "add" }, 400],
      [`/reactions/reply/${replyId}`, {}, 400],
      [`/reactions/topic/${replyId}`, { change: "add:thanks" }, 404],
      ["/reactions/reply/2147483648", { change: "add:thanks" }, 404],
      ["/reactions/reply/-1", { change: "add:thanks" }, 404],
      ["/reactions/reply/2147483647", { change: "add:thanks" }, 404],
    ];
    for (const [path, form, status] of refused) {
      const res = await web.http.post(path, form, { cookie: m.cookie });
      expect(res.status, `${path} ${JSON.stringify(form)}`).toBe(status);
    }
    // Somewhere else to go back to is not taken.
    const offsite = await web.http.post(`/reactions/reply/${replyId}`, { change: "add:thanks", redirectTo: "https://evil.example/" }, { cookie: m.cookie });
    expect(offsite.headers.get("location")).toBe(`/reactions/reply/${replyId}`);
    const rows = await web.site.services.db.selectFrom("reaction").select("reaction").where("member_id", "=", m.id).execute();
    expect(rows).toEqual([{ reaction: "thanks" }]);

    const own = await joinOverHttp(web, "Oona Own");
    const ownViewer = await viewerOf(web, own.id);
    const d = await discussion(web.site.services, { author: ownViewer });
    const mine = await web.http.post(`/reactions/discussion/${d.id}`, { change: "add:thanks" }, { cookie: own.cookie });
    expect(mine.status).toBe(403);
    expect(await readable(mine)).toContain(OWN_REACTION_MESSAGE);

    const visitor = await web.http.post(`/reactions/reply/${replyId}`, { change: "add:thanks" });
    expect([302, 303]).toContain(visitor.status);
    expect(visitor.headers.get("location")).toMatch(/^\/signin/);
    // No state changes on GET, and a page that is not there is a 404.
    expect((await web.http.get(`/reactions/reply/${replyId}?change=add:strength`, { cookie: m.cookie })).status).toBe(200);
    expect(rows.length).toBe(1);
    expect((await web.http.get("/reactions/reply/2147483647")).status).toBe(404);
    expect((await web.http.get("/reactions/nothing/1")).status).toBe(404);
  });

  it("/ranks says every member reacts from the first day, and what the acolyte's rank lifts", async () => {
    const page = await readable(await web.http.get("/ranks"));
    expect(page).toContain("React to any post (Thanks, Inspiring, Insightful, Strength) and like creations: at most 20 a day, in total.");
    expect(page).toContain("The daily limit of 20 reactions and likes lifts, and your likes give their creators XP.");
    expect(page).not.toContain("Mark answers helpful and like creations.");
    expect(page).toContain("Flag posts that break the code of conduct, for the moderators to review.");
    expect(page).toContain("Put at most 2 links and 1 image in a post.");
  });
});
