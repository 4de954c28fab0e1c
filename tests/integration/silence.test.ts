import { describe, expect, it } from "vitest";
import { liftSilence, SILENCE_MESSAGES, silenceMember, silencedMessage } from "~/.server/domain/accounts/silence";
import { addBookmark } from "~/.server/domain/bookmarks/bookmark-service";
import { acceptAnswer, answerQuestion, askQuestion, setHelpful } from "~/.server/domain/council/council-service";
import { commentOnCreation, setLiked } from "~/.server/domain/forge/forge-engagement";
import { flagPost } from "~/.server/domain/flags/flag-service";
import { createTopic, editForumPost, postReply, startDiscussion } from "~/.server/domain/forum/forum-service";
import { notificationsPage } from "~/.server/domain/notifications/notification-service";
import { setReaction } from "~/.server/domain/reactions/reaction-service";
import { rankById } from "~/lib/ranks";
import { answer, creation, discussion, member, question } from "../factories";
import { ENGINE } from "./test-services";
import { moderatorForFile, ok, testSiteForFile } from "./file-site";

const site = testSiteForFile();
const moderator = moderatorForFile(site);

const db = () => site.services.db;
const key = () => crypto.randomUUID();

describe(`silencing on ${ENGINE}`, () => {
  it("a silenced member is refused every write others would see, with the reason and the end date, and may write again once lifted", async () => {
    // A disciple, so that no rank refuses anything before the silence does.
    const quiet = await member(db(), { xp: rankById("disciple").minXp });
    const other = await member(db(), { xp: rankById("acolyte").minXp });
    const d = await discussion(site.services);
    const ownReply = await postReply(site.services, quiet, d.id, { body: "Before the silence.", submissionKey: key() });
    if (!ownReply.ok) throw new Error("reply");
    const othersReply = await postReply(site.services, other, d.id, { body: "Someone else's.", submissionKey: key() });
    if (!othersReply.ok) throw new Error("reply");
    const q = await question(site.services, { asker: quiet });
    const a = await answer(site.services, q.id, { author: other });
    const c = (await creation(db(), { author: other })).id;

    const now = new Date();
    const silenced = await silenceMember(site.services, moderator, quiet.id, { days: 7, reason: "Repeated spam links" }, now);
    if (!silenced.ok) throw new Error("silence");
    const message = silencedMessage(silenced.value.until, "Repeated spam links");
    expect(message).toMatch(
      /^You are silenced until [A-Z][a-z]{2} \d{1,2}, \d{4} \(Repeated spam links\)\. You can read, but not post, react or flag until then\.$/,
    );
    const refused = { ok: false, status: 403, errors: { form: message } };

    const attempts: Array<[string, Promise<unknown>]> = [
      ["reply", postReply(site.services, quiet, d.id, { body: "Hello?", submissionKey: key() })],
      ["discussion", startDiscussion(site.services, quiet, d.section, d.topicId, { title: "A new one", body: "Body.", submissionKey: key() })],
      ["question", askQuestion(site.services, quiet, { title: "Why is the sky blue?", body: "Curious.", virtues: ["wisdom"], submissionKey: key() })],
      ["answer", answerQuestion(site.services, quiet, q.id, { body: "Because.", submissionKey: key() })],
      ["comment", commentOnCreation(site.services, quiet, c, { body: "Lovely.", submissionKey: key() })],
      ["edit", editForumPost(site.services, quiet, "reply", ownReply.value.id, { body: "Edited while silenced." })],
      ["reaction", setReaction(site.services, quiet, { kind: "reply", id: othersReply.value.id }, "thanks", true)],
      ["like", setLiked(site.services, quiet, c, true)],
      ["flag", flagPost(site.services, quiet, { kind: "reply", id: othersReply.value.id }, { reason: "spam", note: "" })],
      ["helpful", setHelpful(site.services, quiet, a.id, true)],
      ["accept", acceptAnswer(site.services, quiet, q.id, a.id)],
      ["topic", createTopic(site.services, quiet, "monastery", { title: "Silent sitting", description: "For those who sit." })],
    ];
    for (const [what, attempt] of attempts) expect(await attempt, what).toEqual(refused);
    // What is the member's alone stays theirs.
    expect((await addBookmark(site.services, quiet, { kind: "reply", id: othersReply.value.id })).ok).toBe(true);
    const told = (await notificationsPage(db(), quiet, null)).items.find((n) => n.kind === "moderation.silenced");
    expect(told?.title).toContain("(Repeated spam links)");
    const written = await db().selectFrom("reply").select("id").where("author_id", "=", quiet.id).execute();
    expect(written).toHaveLength(1);

    expect((await liftSilence(site.services, moderator, quiet.id)).ok).toBe(true);
    expect((await postReply(site.services, quiet, d.id, { body: "Back again.", submissionKey: key() })).ok).toBe(true);
    // A silence that has run out refuses nothing.
    ok(await silenceMember(site.services, moderator, quiet.id, { days: 1, reason: "A short pause" }, new Date(Date.now() - 2 * 24 * 3600_000)));
    expect((await postReply(site.services, quiet, d.id, { body: "After the pause.", submissionKey: key() })).ok).toBe(true);
  });

  it("only moderators silence, never a moderator, and only for 1 to 365 days with a reason", async () => {
    const target = await member(db());
    const plain = await member(db());
    expect(await silenceMember(site.services, plain, target.id, { days: 7, reason: "No." })).toMatchObject({ ok: false, status: 403 });
    expect(await silenceMember(site.services, moderator, moderator.id, { days: 7, reason: "Self." })).toEqual({
      ok: false,
      status: 403,
      errors: { form: SILENCE_MESSAGES.notMember },
    });
    for (const days of [0, 366, 1.5, Number.NaN]) {
      expect(await silenceMember(site.services, moderator, target.id, { days, reason: "Spam" })).toMatchObject({
        ok: false,
        status: 400,
        errors: { days: SILENCE_MESSAGES.days },
      });
    }
    expect(await silenceMember(site.services, moderator, target.id, { days: 7, reason: "  " })).toMatchObject({ ok: false, status: 400 });
    expect(await silenceMember(site.services, moderator, "no-such-member", { days: 7, reason: "Spam" })).toMatchObject({ ok: false, status: 404 });
    const row = await db().selectFrom("member").select("silenced_until").where("id", "=", target.id).executeTakeFirstOrThrow();
    expect(row.silenced_until).toBeNull();
  });
});
