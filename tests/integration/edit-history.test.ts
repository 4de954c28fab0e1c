import { describe, expect, it } from "vitest";
import { editAnswer } from "~/.server/domain/council/council-service";
import { editComment, commentOnCreation } from "~/.server/domain/forge/forge-engagement";
import { deleteForumPost, editForumPost, moderate, postReply } from "~/.server/domain/forum/forum-service";
import { wordDiffHtml } from "~/.server/domain/posts/word-diff";
import { EDIT_GRACE_MS } from "~/lib/history";
import { rankById } from "~/lib/ranks";
import { answer, creation, discussion, member, question } from "../factories";
import { ENGINE } from "./test-services";
import { readable, siteOverHttp } from "./site-server";
import { joinOverHttp } from "./site-join";

const web = siteOverHttp({ demo: false });
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const revisionCount = async (kind: string, id: number) =>
  (
    await web.site.services.db
      .selectFrom("post_revision")
      .select("id")
      .where("kind", "=", kind as "reply")
      .where("post_id", "=", id)
      .execute()
  ).length;

async function reply(body: string) {
  const d = await discussion(web.site.services, { title: "Stillness drills" });
  const author = await member(web.site.services.db, { xp: rankById("acolyte").minXp });
  const posted = await postReply(web.site.services, author, d.id, { body, submissionKey: crypto.randomUUID() });
  if (!posted.ok) throw new Error(JSON.stringify(posted));
  return { d, author, id: posted.value.id, path: `/${d.section}/${d.topicId}/${d.id}-${d.slug}` };
}

describe(`edit history on ${ENGINE}`, () => {
  it("keeps no revision for an edit in the first five minutes, then keeps each replaced version with the words it changed", async () => {
    const { author, id, path } = await reply("Breathe in for four counts.");
    expect((await editForumPost(web.site.services, author, "reply", id, { body: "Breathe in for four slow counts." })).ok).toBe(true);
    expect(await revisionCount("reply", id)).toBe(0);
    const early = await readable(await web.http.get(`/history/reply/${id}`));
    expect(early).toContain("No earlier version is kept: this post was edited only in the first five minutes after it was posted.");

    const at = later(EDIT_GRACE_MS / 60_000 + 1);
    const edited = await editForumPost(web.site.services, author, "reply", id, { body: "Breathe in for six slow counts. <script>x</script>" }, at);
    expect(edited.ok).toBe(true);
    expect(await revisionCount("reply", id)).toBe(1);
    // The same text again keeps nothing more.
    await editForumPost(web.site.services, author, "reply", id, { body: "Breathe in for six slow counts. <script>x</script>" }, later(8));
    expect(await revisionCount("reply", id)).toBe(1);

    const page = await readable(await web.http.get(path));
    expect(page).toMatch(new RegExp(`<a href="/history/reply/${id}"[^>]*>edited</a>`));
    const history = await readable(await web.http.get(`/history/reply/${id}`));
    expect(history).toContain("Edit History");
    expect(history).toContain("<del>four</del>");
    expect(history).toContain("<ins>six</ins>");
    // Member text is escaped inside the marks, never markup.
    expect(history).toContain("&lt;script&gt;");
    expect(history).not.toContain("<script>x</script>");
  });

  it("a discussion's title is in its history with its body; answers and comments have histories too", async () => {
    const author = await member(web.site.services.db, { xp: rankById("acolyte").minXp });
    const d = await discussion(web.site.services, { title: "Cold showers at dawn", body: "Every day.", author });
    expect((await editForumPost(web.site.services, author, "discussion", d.id, { title: "Cold showers at noon", body: "Every day." }, later(6))).ok).toBe(true);
    const history = await readable(await web.http.get(`/history/discussion/${d.id}`));
    expect(history).toContain('<p class="diff-title">Cold showers at <del>dawn</del><ins>noon</ins></p>');

    const q = await question(web.site.services);
    const a = await answer(web.site.services, q.id, { body: "Sit for ten minutes." });
    expect((await editAnswer(web.site.services, a.author, a.id, { body: "Sit for twenty minutes." }, later(6))).ok).toBe(true);
    expect(await readable(await web.http.get(`/history/answer/${a.id}`))).toContain("<del>ten</del><ins>twenty</ins>");

    const c = await creation(web.site.services.db);
    const commenter = await member(web.site.services.db, { xp: rankById("acolyte").minXp });
    const commented = await commentOnCreation(web.site.services, commenter, c.id, { body: "Lovely glaze.", submissionKey: crypto.randomUUID() });
    if (!commented.ok) throw new Error(JSON.stringify(commented));
    expect((await editComment(web.site.services, commenter, commented.value.id, { body: "Lovely blue glaze." }, later(6))).ok).toBe(true);
    expect(await readable(await web.http.get(`/history/comment/${commented.value.id}`))).toContain("<ins>blue </ins>");
  });

  it("shows a hidden post's history to moderators only, a deleted one's to nobody, and answers 404 for what cannot exist", async () => {
    const { author, id } = await reply("Words a moderator will hide.");
    await editForumPost(web.site.services, author, "reply", id, { body: "Words a moderator hid." }, later(6));
    const moderator = await joinOverHttp(web, "Mona Moderator");
    await web.site.services.db.updateTable("member").set({ role: "moderator" }).where("id", "=", moderator.id).execute();
    const moderatorViewer = await member(web.site.services.db, { role: "moderator" });
    expect((await moderate(web.site.services, moderatorViewer, "hide", "reply", id)).ok).toBe(true);
    expect((await web.http.get(`/history/reply/${id}`)).status).toBe(404);
    expect((await web.http.get(`/history/reply/${id}`, { cookie: moderator.cookie })).status).toBe(200);

    // Edited, then deleted: its history is gone, and its card no longer links there (a link to a 404).
    const gone = await reply("Words their author deletes.");
    await editForumPost(web.site.services, gone.author, "reply", gone.id, { body: "Words their author deleted." }, later(6));
    expect((await deleteForumPost(web.site.services, gone.author, "reply", gone.id)).ok).toBe(true);
    expect((await web.http.get(`/history/reply/${gone.id}`)).status).toBe(404);
    expect(await readable(await web.http.get(gone.path))).not.toContain(`/history/reply/${gone.id}`);
    for (const path of ["/history/topic/1", "/history/reply/0", "/history/reply/2147483648", "/history/reply/abc", "/history/reply/2147483647"]) {
      expect((await web.http.get(path)).status, path).toBe(404);
    }
  });

  it("gives up on a diff past its bound: the whole old text reads as removed and the new one as added", () => {
    const before = Array.from({ length: 5000 }, (_, i) => `old${i}`).join(" ");
    const after = Array.from({ length: 5000 }, (_, i) => `new${i}`).join(" ");
    const html = wordDiffHtml(before, after);
    expect(html).toBe(`<del>${before}</del><ins>${after}</ins>`);
    expect(wordDiffHtml("a < b & c", "a > b & c")).toBe("a <del>&lt;</del><ins>&gt;</ins> b &amp; c");
  });
});
