import { describe, expect, it } from "vitest";
import { postReply } from "~/.server/domain/forum/forum-service";
import { FLAG_MESSAGES } from "~/.server/domain/flags/flag-service";
import { rankById } from "~/lib/ranks";
import { discussion, member } from "../factories";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp();

async function discussionWithReply(words: string) {
  const d = await discussion(web.site.services, { title: "Cold water and calm" });
  const author = await member(web.site.services.db, { xp: rankById("acolyte").minXp });
  const posted = await postReply(web.site.services, author, d.id, { body: words, submissionKey: crypto.randomUUID() });
  if (!posted.ok) throw new Error("reply");
  return { replyId: posted.value.id, path: `/${d.section}/${d.topicId}/${d.id}-${d.slug}` };
}

describe(`flags and review over HTTP, on ${ENGINE}`, () => {
  it("three members flag a reply from its form and a visitor no longer sees it; a moderator restores it from /review", async () => {
    const words = `Visit my shop for cheap mats ${Date.now()}`;
    const { replyId, path } = await discussionWithReply(words);
    const flaggers = [await joinOverHttp(web, "Fay Flagger"), await joinOverHttp(web, "Gil Flagger"), await joinOverHttp(web, "Hob Flagger")];
    const page = await readable(await web.http.get(path, { cookie: flaggers[0]!.cookie }));
    expect(page).toContain(`href="/flags/reply/${replyId}"`);
    const form = await readable(await web.http.get(`/flags/reply/${replyId}`, { cookie: flaggers[0]!.cookie }));
    expect(form).toContain("Why are you flagging this post?");
    expect(form).toContain("Cold water and calm");

    for (const [i, f] of flaggers.entries()) {
      const res = await web.http.post(`/flags/reply/${replyId}`, { reason: "spam", note: "" }, { cookie: f.cookie });
      expect(res.status).toBe(200);
      const said = await readable(res);
      expect(said).toContain("Thank you. The moderators will review this post.");
      if (i === 2) expect(said).toContain("It is hidden while the community reviews it.");
    }
    const veiled = await readable(await web.http.get(path));
    expect(veiled).not.toContain(words);
    // In its place, for a visitor as for the members: what happened to it.
    expect(veiled).toContain("Hidden while the community reviews it.");
    expect(await readable(await web.http.get(path, { cookie: flaggers[1]!.cookie }))).toContain("Hidden while the community reviews it.");

    // Only moderators review.
    expect((await web.http.get("/review", { cookie: flaggers[0]!.cookie })).status).toBe(403);
    expect((await web.http.post("/review", { kind: "reply", id: String(replyId), decision: "disagree" }, { cookie: flaggers[0]!.cookie })).status).toBe(403);
    const visitor = await web.http.get("/review");
    expect([302, 303]).toContain(visitor.status);

    const moderator = await joinOverHttp(web, "Mira Moderator");
    await web.site.services.db.updateTable("member").set({ role: "moderator" }).where("id", "=", moderator.id).execute();
    const queue = await readable(await web.http.get("/review", { cookie: moderator.cookie }));
    expect(queue).toContain("Cold water and calm");
    expect(queue).toContain("Hidden by flags");
    expect(queue).toContain("Fay Flagger");
    const decided = await web.http.post("/review", { kind: "reply", id: String(replyId), decision: "disagree" }, { cookie: moderator.cookie });
    expect(decided.status).toBe(303);
    const restored = await readable(await web.http.get(path));
    expect(restored).toContain(words);
    expect(restored).not.toContain("Hidden while the community reviews it.");
    // Decided: a second decision finds nothing pending.
    const again = await web.http.post("/review", { kind: "reply", id: String(replyId), decision: "agree" }, { cookie: moderator.cookie });
    expect(again.status).toBe(409);
    expect(await readable(again)).toContain(FLAG_MESSAGES.nothingToReview);
  });

  it("refuses what is no flag with a 4xx and a reason, changing nothing", async () => {
    const { replyId } = await discussionWithReply("Plain words.");
    const m = await joinOverHttp(web, "Ian Invalid");
    const cases: Array<[string, Record<string, string>, number, string | null]> = [
      [`/flags/reply/${replyId}`, { reason: "hate", note: "" }, 400, "Choose why you flag this post"],
      [`/flags/reply/${replyId}`, { reason: "other", note: "   " }, 400, "Say what is wrong in the note"],
      [`/flags/reply/${replyId}`, { reason: "spam", note: "x".repeat(501) }, 400, "Keep the note under 500 characters"],
      [`/flags/topic/${replyId}`, { reason: "spam", note: "" }, 404, null],
      ["/flags/reply/2147483648", { reason: "spam", note: "" }, 404, null],
      ["/flags/reply/2147483647", { reason: "spam", note: "" }, 404, null],
    ];
    for (const [path, form, status, message] of cases) {
      const res = await web.http.post(path, form, { cookie: m.cookie });
      expect(res.status, `${path} ${JSON.stringify(form)}`).toBe(status);
      if (message) expect(await readable(res)).toContain(message);
    }
    expect(await web.site.services.db.selectFrom("flag").select("id").where("flagger_id", "=", m.id).execute()).toEqual([]);
    expect((await web.http.post(`/flags/reply/${replyId}`, { reason: "spam", note: "" }, { cookie: m.cookie })).status).toBe(200);
    const twice = await web.http.post(`/flags/reply/${replyId}`, { reason: "abusive", note: "" }, { cookie: m.cookie });
    expect(twice.status).toBe(409);
    expect(await readable(twice)).toContain(FLAG_MESSAGES.twice);
    const visitor = await web.http.post(`/flags/reply/${replyId}`, { reason: "spam", note: "" });
    expect([302, 303]).toContain(visitor.status);
    expect(visitor.headers.get("location")).toMatch(/^\/signin/);
  });

  it("a moderator silences a member from their profile; the member's reply is refused with the reason and the date until it is lifted", async () => {
    const { path } = await discussionWithReply("A calm reply.");
    const loud = await joinOverHttp(web, "Lou Loud");
    const moderator = await joinOverHttp(web, "Mo Silencer");
    await web.site.services.db.updateTable("member").set({ role: "moderator" }).where("id", "=", moderator.id).execute();
    const handle = (await web.site.services.db.selectFrom("member").select("handle").where("id", "=", loud.id).executeTakeFirstOrThrow()).handle;
    const profile = await readable(await web.http.get(`/members/${handle}`, { cookie: moderator.cookie }));
    expect(profile).toContain("Silence Member");
    // Not for other members.
    expect(await readable(await web.http.get(`/members/${handle}`, { cookie: loud.cookie }))).not.toContain("Silence Member");
    const notAllowed = await web.http.post(`/members/${handle}`, { intent: "silence", days: "7", reason: "Shouting" }, { cookie: loud.cookie });
    expect(notAllowed.status).toBe(403);
    const badDays = await web.http.post(`/members/${handle}`, { intent: "silence", days: "0", reason: "Shouting" }, { cookie: moderator.cookie });
    expect(badDays.status).toBe(400);
    expect(await readable(badDays)).toContain("Choose from 1 to 365 days");

    const silenced = await web.http.post(
      `/members/${handle}`,
      { intent: "silence", days: "7", reason: "Shouting in every topic" },
      { cookie: moderator.cookie },
    );
    expect(silenced.status).toBe(302);
    expect(await readable(await web.http.get(`/members/${handle}`, { cookie: moderator.cookie }))).toContain("Shouting in every topic");

    const page = await readable(await web.http.get(path, { cookie: loud.cookie }));
    const submissionKey = /name="submissionKey" value="([^"]+)"/.exec(page)![1]!;
    const refused = await web.http.post(path, { intent: "reply", body: "LOUD WORDS", submissionKey }, { cookie: loud.cookie });
    expect(refused.status).toBe(403);
    const said = await readable(refused);
    expect(said).toMatch(/You are silenced until [A-Z][a-z]{2} \d{1,2}, \d{4} \(Shouting in every topic\)/);

    expect((await web.http.post(`/members/${handle}`, { intent: "unsilence" }, { cookie: moderator.cookie })).status).toBe(302);
    const again = await web.http.post(path, { intent: "reply", body: "Quieter words", submissionKey }, { cookie: loud.cookie });
    expect(again.status).toBe(302);
  });

  it("/review's Agree also deletes the post and warns its author when the form says so; a warning too long decides nothing", async () => {
    const words = `Rude words ${Date.now()}`;
    const { replyId, path } = await discussionWithReply(words);
    const moderator = await joinOverHttp(web, "Max Moderator");
    await web.site.services.db.updateTable("member").set({ role: "moderator" }).where("id", "=", moderator.id).execute();
    expect((await web.http.post(`/flags/reply/${replyId}`, { reason: "abusive", note: "" }, { cookie: moderator.cookie })).status).toBe(200);
    const queue = await readable(await web.http.get("/review", { cookie: moderator.cookie }));
    expect(queue).toContain("Delete the post");
    expect(queue).toContain('aria-keyshortcuts="A"');
    const form = { kind: "reply", id: String(replyId), decision: "agree", remove: "on", silenceDays: "0" };
    const tooLong = await web.http.post("/review", { ...form, warning: "w".repeat(501) }, { cookie: moderator.cookie });
    expect(tooLong.status).toBe(400);
    expect(await readable(tooLong)).toContain(FLAG_MESSAGES.warningLong);
    expect((await web.http.post("/review", { ...form, warning: "Mind your words." }, { cookie: moderator.cookie })).status).toBe(303);
    const row = await web.site.services.db.selectFrom("reply").select(["deleted_at", "author_id"]).where("id", "=", replyId).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    const warned = await web.site.services.db
      .selectFrom("notification")
      .select("title")
      .where("member_id", "=", row.author_id)
      .where("kind", "=", "moderation.warned")
      .executeTakeFirst();
    expect(warned?.title).toBe("Mind your words.");
    expect(await readable(await web.http.get(path))).not.toContain(words);
  });
});
