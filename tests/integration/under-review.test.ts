import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { creationWithComments } from "~/.server/domain/forge/forge-read-model";
import { commentOnCreation } from "~/.server/domain/forge/forge-engagement";
import { questionWithAnswers } from "~/.server/domain/council/council-read-model";
import { editAnswer } from "~/.server/domain/council/council-service";
import { decideReview, flagPost } from "~/.server/domain/flags/flag-service";
import { discussionWithReplies } from "~/.server/domain/forum/forum-read-model";
import { deleteForumPost, editForumPost, moderate, postReply } from "~/.server/domain/forum/forum-service";
import type { PostKind } from "~/.server/domain/posts/post-kinds";
import { UNDER_REVIEW_TITLE } from "~/lib/flags";
import { answer, creation, discussion, member, question } from "../factories";
import { ENGINE } from "./test-services";
import { moderatorForFile, testSiteForFile } from "./file-site";

const site = testSiteForFile();
const moderator = moderatorForFile(site);

const FIRST = { kind: "first" } as const;

/** Three new initiates' flags (no record yet): enough weight to hide the post until a moderator decides. */
async function flagsHide(kind: PostKind, id: number) {
  for (let i = 0; i < 3; i++) {
    const flagged = await flagPost(site.services, await member(site.services.db), { kind, id }, { reason: "abusive", note: "" });
    if (!flagged.ok) throw new Error(JSON.stringify(flagged));
    expect(flagged.value.hidden).toBe(i === 2);
  }
}

async function replyBy(author: Viewer, discussionId: number, body: string) {
  const posted = await postReply(site.services, author, discussionId, { body, submissionKey: crypto.randomUUID() });
  if (!posted.ok) throw new Error(JSON.stringify(posted));
  return posted.value.id;
}

describe(`posts the flags hid, on ${ENGINE}`, () => {
  it("a reply reads 'under review' to visitors and members, in full to its author and the moderators; its author may edit it; a decision ends it", async () => {
    const d = await discussion(site.services, { title: "Breath before battle" });
    const author = await member(site.services.db, { xp: 200 });
    const reader = await member(site.services.db);
    const replyId = await replyBy(author, d.id, "Words someone took badly.");
    await flagsHide("reply", replyId);

    for (const viewer of [null, reader]) {
      const shown = (await discussionWithReplies(site.services.db, viewer, d.id, FIRST))!;
      const veiled = shown.replies.find((r) => r.id === replyId);
      expect(veiled).toMatchObject({ hidden: true, review: "flags", veiled: true, html: null, body: null });
    }
    const own = (await discussionWithReplies(site.services.db, author, d.id, FIRST))!.replies.find((r) => r.id === replyId);
    expect(own).toMatchObject({ review: "flags", veiled: false, body: "Words someone took badly." });
    expect(own?.html).toContain("Words someone took badly.");
    const moderated = (await discussionWithReplies(site.services.db, moderator, d.id, FIRST))!.replies.find((r) => r.id === replyId);
    expect(moderated).toMatchObject({ review: "flags", veiled: false });

    // The author mends it; it stays hidden until a moderator decides, and a stranger still may not edit it.
    expect(await editForumPost(site.services, author, "reply", replyId, { body: "Kinder words." })).toEqual({ ok: true, value: { id: replyId } });
    expect((await editForumPost(site.services, reader, "reply", replyId, { body: "Mine now." })).ok).toBe(false);
    const mended = (await discussionWithReplies(site.services.db, null, d.id, FIRST))!.replies.find((r) => r.id === replyId);
    // Veiled, it links to no history (which only its author and the moderators may read).
    expect(mended).toMatchObject({ veiled: true, html: null, edited: false });

    // Agreed: hidden by a moderator's decision now, out of sight but for the moderators; the author can no longer change it.
    expect(await decideReview(site.services, moderator, { kind: "reply", id: replyId }, "agree")).toEqual({
      ok: true,
      value: { hidden: true, deleted: false },
    });
    expect((await discussionWithReplies(site.services.db, null, d.id, FIRST))!.replies.some((r) => r.id === replyId)).toBe(false);
    expect((await discussionWithReplies(site.services.db, author, d.id, FIRST))!.replies.some((r) => r.id === replyId)).toBe(false);
    expect((await discussionWithReplies(site.services.db, moderator, d.id, FIRST))!.replies.find((r) => r.id === replyId)).toMatchObject({
      hidden: true,
      review: null,
    });
    expect((await editForumPost(site.services, author, "reply", replyId, { body: "Again." })).ok).toBe(false);
    expect((await deleteForumPost(site.services, author, "reply", replyId)).ok).toBe(false);
  });

  it("a reply a moderator hid stays out of sight of everyone else, its author included, and only they may change it", async () => {
    const d = await discussion(site.services);
    const author = await member(site.services.db, { xp: 200 });
    const replyId = await replyBy(author, d.id, "Hidden by hand.");
    expect((await moderate(site.services, moderator, "hide", "reply", replyId)).ok).toBe(true);
    for (const viewer of [null, author]) {
      expect((await discussionWithReplies(site.services.db, viewer, d.id, FIRST))!.replies.some((r) => r.id === replyId)).toBe(false);
    }
    expect(await editForumPost(site.services, author, "reply", replyId, { body: "Let me." })).toMatchObject({ ok: false, status: 404 });
  });

  it("a discussion the flags hid opens for a reader as 'Under review', without its words or replies; its author reads it all", async () => {
    const author = await member(site.services.db, { xp: 200 });
    const d = await discussion(site.services, { title: "A title someone flagged", author });
    await replyBy(await member(site.services.db, { xp: 200 }), d.id, "A reply under it.");
    await flagsHide("discussion", d.id);
    const veiled = (await discussionWithReplies(site.services.db, null, d.id, FIRST))!;
    expect(veiled.discussion).toMatchObject({ title: UNDER_REVIEW_TITLE, html: null, excerpt: "", veiled: true });
    expect(veiled.replies).toEqual([]);
    const own = (await discussionWithReplies(site.services.db, author, d.id, FIRST))!;
    expect(own.discussion).toMatchObject({ title: "A title someone flagged", veiled: false, review: "flags" });
    expect(own.replies).toHaveLength(1);
    // Disagreed: it shows to everyone again.
    expect((await decideReview(site.services, moderator, { kind: "discussion", id: d.id }, "disagree")).ok).toBe(true);
    expect((await discussionWithReplies(site.services.db, null, d.id, FIRST))!.discussion).toMatchObject({ title: "A title someone flagged", veiled: false });
  });

  it("a question and an answer, a creation and a comment are veiled alike, and their authors read and edit them", async () => {
    const q = await question(site.services, { title: "Why sit at dawn?", body: "The question's words." });
    const a = await answer(site.services, q.id, { body: "An answer someone flagged." });
    await flagsHide("answer", a.id);
    const asShown = (await questionWithAnswers(site.services.db, q.id, null))!;
    expect(asShown.answers.find((x) => x.id === a.id)).toMatchObject({ veiled: true, html: null });
    expect((await questionWithAnswers(site.services.db, q.id, a.author))!.answers.find((x) => x.id === a.id)).toMatchObject({
      veiled: false,
      review: "flags",
    });
    expect((await editAnswer(site.services, a.author, a.id, { body: "A better answer." })).ok).toBe(true);
    await flagsHide("question", q.id);
    const veiledQuestion = (await questionWithAnswers(site.services.db, q.id, null))!;
    expect(veiledQuestion.question).toMatchObject({ title: UNDER_REVIEW_TITLE, html: null, veiled: true });
    expect(veiledQuestion.answers).toEqual([]);
    expect((await questionWithAnswers(site.services.db, q.id, q.asker))!.question).toMatchObject({ title: "Why sit at dawn?", review: "flags" });

    const c = await creation(site.services.db, { title: "A carved bowl", body: "How I carved it." });
    const commenter = await member(site.services.db, { xp: 200 });
    const commented = await commentOnCreation(site.services, commenter, c.id, { body: "A comment someone flagged.", submissionKey: crypto.randomUUID() });
    if (!commented.ok) throw new Error(JSON.stringify(commented));
    await flagsHide("comment", commented.value.id);
    expect((await creationWithComments(site.services.db, c.id, null))!.comments.find((x) => x.id === commented.value.id)).toMatchObject({
      veiled: true,
      html: null,
    });
    await flagsHide("creation", c.id);
    const veiledCreation = (await creationWithComments(site.services.db, c.id, null))!;
    expect(veiledCreation.creation).toMatchObject({ title: UNDER_REVIEW_TITLE, html: null, description: "", linkUrl: null, image: null, veiled: true });
    expect(veiledCreation.comments).toEqual([]);
    expect((await creationWithComments(site.services.db, c.id, c.author))!.creation).toMatchObject({ title: "A carved bowl", review: "flags" });
  });
});
