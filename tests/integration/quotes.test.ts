import { describe, expect, it } from "vitest";
import { deleteForumPost, moderate, postReply, REPLY_TO_MISSING } from "~/.server/domain/forum/forum-service";
import { quoteMarkdown } from "~/lib/quotes";
import { rankById } from "~/lib/ranks";
import { answer, discussion, member, question } from "../factories";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp({ demo: false });

async function replyBy(name: string, discussionId: number, body: string) {
  const author = await member(web.site.services.db, { name, xp: rankById("acolyte").minXp });
  const posted = await postReply(web.site.services, author, discussionId, { body, submissionKey: crypto.randomUUID() });
  if (!posted.ok) throw new Error(JSON.stringify(posted));
  return { author, id: posted.value.id };
}

const keyOf = (page: string) => /name="submissionKey" value="([^"]+)"/.exec(page)![1]!;

describe(`quotes and replies to replies on ${ENGINE}`, () => {
  it("Quote opens the reply form with the reply quoted and linked; the reply posted answers it and says so", async () => {
    const d = await discussion(web.site.services, { title: "Evening walks" });
    const path = `/${d.section}/${d.topicId}/${d.id}-${d.slug}`;
    const omar = await replyBy("Omar Walker", d.id, "Walk after dinner.\nTwenty minutes is enough.");
    const m = await joinOverHttp(web, "Quin Quoter", { xp: rankById("acolyte").minXp });

    const page = await readable(await web.http.get(path, { cookie: m.cookie }));
    expect(page).toContain(`href="${path}?quote=${omar.id}#reply-body"`);
    expect(page).toContain(`href="${path}?replyTo=${omar.id}#reply-body"`);
    const quoting = await readable(await web.http.get(`${path}?quote=${omar.id}`, { cookie: m.cookie }));
    // The box holds the quote (escaped in the page), with who wrote it linked back to it.
    expect(quoting).toContain(`&gt; Walk after dinner.\n&gt; Twenty minutes is enough.\n&gt;\n&gt; — [Omar Walker](${path}#reply-${omar.id})`);
    expect(quoting).toContain(`<input type="hidden" name="replyTo" value="${omar.id}"/>`);
    expect(quoting).toContain("Replying to <span");

    const posted = await web.http.post(
      path,
      { intent: "reply", body: "> Walk after dinner.\n\nI walk before it.", submissionKey: keyOf(quoting), replyTo: String(omar.id) },
      { cookie: m.cookie },
    );
    expect(posted.status).toBe(302);
    const row = await web.site.services.db.selectFrom("reply").select(["id", "reply_to_id"]).where("author_id", "=", m.id).executeTakeFirstOrThrow();
    expect(row.reply_to_id).toBe(omar.id);
    const after = await readable(await web.http.get(path));
    expect(after).toMatch(new RegExp(`in reply to <a href="${path.replace(/[?]/g, "\\\\?")}#reply-${omar.id}"[^>]*>Omar Walker</a>`));
  });

  it("quotes a hidden or deleted reply as removed and answers neither; refuses a reply to another discussion's reply", async () => {
    const d = await discussion(web.site.services);
    const other = await discussion(web.site.services);
    const path = `/${d.section}/${d.topicId}/${d.id}-${d.slug}`;
    const hidden = await replyBy("Hal Hidden", d.id, "Hidden words.");
    const gone = await replyBy("Del Deleted", d.id, "Deleted words.");
    const elsewhere = await replyBy("Eli Elsewhere", other.id, "Elsewhere.");
    expect((await moderate(web.site.services, await member(web.site.services.db, { role: "moderator" }), "hide", "reply", hidden.id)).ok).toBe(true);
    expect((await deleteForumPost(web.site.services, gone.author, "reply", gone.id)).ok).toBe(true);
    const m = await joinOverHttp(web, "Rae Refused");
    for (const id of [hidden.id, gone.id]) {
      const page = await readable(await web.http.get(`${path}?quote=${id}`, { cookie: m.cookie }));
      expect(page).toContain("&gt; [quoted post removed]");
      expect(page).not.toContain('name="replyTo"');
    }
    // Another discussion's reply: an empty form.
    expect(await readable(await web.http.get(`${path}?quote=${elsewhere.id}`, { cookie: m.cookie }))).not.toContain('name="replyTo"');

    const key = keyOf(await readable(await web.http.get(path, { cookie: m.cookie })));
    for (const replyTo of [String(elsewhere.id), String(hidden.id)]) {
      const refused = await web.http.post(path, { intent: "reply", body: "Answering.", submissionKey: key, replyTo }, { cookie: m.cookie });
      expect(refused.status).toBe(400);
      expect(await readable(refused)).toContain(REPLY_TO_MISSING);
    }
    expect((await web.http.post(path, { intent: "reply", body: "Answering.", submissionKey: key, replyTo: "abc" }, { cookie: m.cookie })).status).toBe(400);
    expect(await web.site.services.db.selectFrom("reply").select("id").where("author_id", "=", m.id).execute()).toEqual([]);
  });

  it("Quote on an answer opens the answer form with it quoted and linked; a hidden one is quoted as removed", async () => {
    const q = await question(web.site.services, { title: "How long to hold a plank?" });
    const a = await answer(web.site.services, q.id, { body: "Start with thirty seconds." });
    const hiddenAnswer = await answer(web.site.services, q.id, { body: "Hidden advice." });
    await web.site.services.db.updateTable("answer").set({ hidden_at: new Date().toISOString() }).where("id", "=", hiddenAnswer.id).execute();
    const m = await joinOverHttp(web, "Ann Answerer");
    const page = await readable(await web.http.get(`/council/${q.id}`, { cookie: m.cookie }));
    expect(page).toContain(`href="/council/${q.id}?quote=${a.id}#answer-body"`);
    const quoting = await readable(await web.http.get(`/council/${q.id}?quote=${a.id}`, { cookie: m.cookie }));
    expect(quoting).toMatch(new RegExp(`&gt; Start with thirty seconds\\.\n&gt;\n&gt; — \\[[^\\]]+\\]\\(/council/${q.id}#answer-${a.id}\\)`));
    expect(await readable(await web.http.get(`/council/${q.id}?quote=${hiddenAnswer.id}`, { cookie: m.cookie }))).toContain("&gt; [quoted post removed]");
  });

  it("writes a quote's author as text, whatever their name holds", () => {
    expect(quoteMarkdown("a\n\nb", "[x](javascript:y) *z*", "/p#reply-1")).toBe("> a\n>\n> b\n>\n> — [\\[x\\](javascript:y) \\*z\\*](/p#reply-1)\n\n");
  });
});
