import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { decideReview, FLAG_MESSAGES, flagPost, flagWeightOf, REVIEW_SILENCE_REASON } from "~/.server/domain/flags/flag-service";
import { reviewQueue } from "~/.server/domain/flags/review-read-model";
import { deleteForumPost, moderate, postReply } from "~/.server/domain/forum/forum-service";
import { notificationsPage, openNotification, saveNotificationSettings } from "~/.server/domain/notifications/notification-service";
import { SPAM_SILENCE_REASON } from "~/.server/domain/accounts/silence";
import { FLAG_THRESHOLD } from "~/lib/flags";
import { rankById } from "~/lib/ranks";
import { discussion, member } from "../factories";
import { ENGINE } from "./test-services";
import { moderatorForFile, ok, testSiteForFile } from "./file-site";

const site = testSiteForFile();
const moderator = moderatorForFile(site);

const db = () => site.services.db;
const acolyte = () => member(db(), { xp: rankById("acolyte").minXp });
async function flaggedReply(author?: Viewer) {
  const d = await discussion(site.services, { title: "Morning pages" });
  const by = author ?? (await acolyte());
  const id = ok(await postReply(site.services, by, d.id, { body: "Buy cheap watches at example.com", submissionKey: crypto.randomUUID() })).id;
  return { d, id, author: by, post: { kind: "reply" as const, id } };
}
const hiddenAt = async (id: number) => (await db().selectFrom("reply").select("hidden_at").where("id", "=", id).executeTakeFirstOrThrow()).hidden_at;
const logOf = (id: number) =>
  db().selectFrom("moderation_action").select(["action", "actor_id"]).where("subject_type", "=", "reply").where("subject_id", "=", id).orderBy("id").execute();
const linesOf = async (m: Viewer) => (await notificationsPage(db(), m, null)).items;

describe(`flags and review on ${ENGINE}`, () => {
  it("three new members' flags hide a reply until a moderator decides; its author is told without names; a moderator restores it", async () => {
    const { id, post, author } = await flaggedReply();
    const [a, b, c] = [await member(db()), await member(db()), await member(db())];
    expect(await flagWeightOf(db(), a)).toBe(100);
    expect(ok(await flagPost(site.services, a, post, { reason: "spam", note: "" }))).toEqual({ hidden: false });
    expect(ok(await flagPost(site.services, b, post, { reason: "spam", note: "" }))).toEqual({ hidden: false });
    expect(await hiddenAt(id)).toBeNull();
    expect(ok(await flagPost(site.services, c, post, { reason: "other", note: "An advert." }))).toEqual({ hidden: true });
    expect(await hiddenAt(id)).not.toBeNull();
    expect((await logOf(id)).map((l) => l.action)).toEqual(["auto-hide"]);
    const told = (await linesOf(author)).find((n) => n.kind === "moderation.flagged");
    expect(told).toMatchObject({ title: "Morning pages", actor: null });

    const queue = await reviewQueue(db());
    const item = queue.items.find((i) => i.key === `reply:${id}`)!;
    expect(item).toMatchObject({ kindLabel: "Reply", title: "Morning pages", hiddenByFlags: true, weight: 300 });
    expect(item.flags.map((f) => [f.reason, f.by, f.note])).toEqual([
      ["Spam", a.name, ""],
      ["Spam", b.name, ""],
      ["Something else", c.name, "An advert."],
    ]);
    expect(item.excerpt).toContain("Buy cheap watches");

    // Not a moderator: refused, nothing moves.
    expect(await decideReview(site.services, a, post, "disagree")).toMatchObject({ ok: false, status: 403 });
    expect(ok(await decideReview(site.services, moderator, post, "disagree"))).toEqual({ hidden: false, deleted: false });
    expect(await hiddenAt(id)).toBeNull();
    expect((await logOf(id)).map((l) => l.action)).toEqual(["auto-hide", "restore", "disagree"]);
    expect((await reviewQueue(db())).items.some((i) => i.key === `reply:${id}`)).toBe(false);
    expect((await linesOf(a)).some((n) => n.kind === "flag.disagreed")).toBe(true);
    expect((await linesOf(author)).some((n) => n.kind === "moderation.restored")).toBe(true);
    // Decided already: nothing pending.
    expect(await decideReview(site.services, moderator, post, "agree")).toMatchObject({ ok: false, status: 409 });
    // The rejected flags weigh their flaggers' next ones less: (0 + 1) / (1 + 1) of 100.
    expect(await flagWeightOf(db(), a)).toBe(50);
  });

  it("a moderator's flag hides at once; higher ranks weigh more; agreeing keeps it hidden and raises the flaggers' record", async () => {
    const first = await flaggedReply();
    ok(await flagPost(site.services, moderator, first.post, { reason: "abusive", note: "" }));
    expect(await hiddenAt(first.id)).not.toBeNull();

    const second = await flaggedReply();
    const disciple = await member(db(), { xp: rankById("disciple").minXp });
    const samurai = await member(db(), { xp: rankById("samurai").minXp });
    expect(await flagWeightOf(db(), disciple)).toBe(150);
    expect(await flagWeightOf(db(), samurai)).toBe(200);
    expect(ok(await flagPost(site.services, disciple, second.post, { reason: "off_topic", note: "" }))).toEqual({ hidden: false });
    expect(ok(await flagPost(site.services, samurai, second.post, { reason: "off_topic", note: "" }))).toEqual({ hidden: true });
    expect(ok(await decideReview(site.services, moderator, second.post, "agree"))).toEqual({ hidden: true, deleted: false });
    expect(await hiddenAt(second.id)).not.toBeNull();
    expect((await linesOf(disciple)).some((n) => n.kind === "flag.agreed")).toBe(true);
    expect((await linesOf(second.author)).some((n) => n.kind === "moderation.hidden")).toBe(true);
    // Agreed once: 150 × min(1.5, (1 + 1) / (0 + 1)).
    expect(await flagWeightOf(db(), disciple)).toBe(225);

    // Ignore: a flag below the threshold leaves the post as it is, and no record moves.
    const third = await flaggedReply();
    const flagger = await member(db());
    ok(await flagPost(site.services, flagger, third.post, { reason: "spam", note: "" }));
    expect(ok(await decideReview(site.services, moderator, third.post, "ignore"))).toEqual({ hidden: false, deleted: false });
    expect(await flagWeightOf(db(), flagger)).toBe(100);
  });

  it("refuses flagging twice, one's own post, a hidden or deleted one, and a note-less 'something else', changing nothing", async () => {
    const { id, post, author } = await flaggedReply();
    const flagger = await member(db());
    ok(await flagPost(site.services, flagger, post, { reason: "spam", note: "" }));
    expect(await flagPost(site.services, flagger, post, { reason: "abusive", note: "" })).toEqual({
      ok: false,
      status: 409,
      errors: { form: FLAG_MESSAGES.twice },
    });
    expect(await flagPost(site.services, author, post, { reason: "spam", note: "" })).toEqual({ ok: false, status: 403, errors: { form: FLAG_MESSAGES.own } });
    expect(await flagPost(site.services, await member(db()), post, { reason: "other", note: "  " })).toMatchObject({ ok: false, status: 400 });
    expect(await flagPost(site.services, await member(db()), post, { reason: "other", note: "x".repeat(501) })).toMatchObject({ ok: false, status: 400 });

    ok(await moderate(site.services, moderator, "hide", "reply", id));
    expect(await flagPost(site.services, await member(db()), post, { reason: "spam", note: "" })).toEqual({
      ok: false,
      status: 409,
      errors: { form: FLAG_MESSAGES.hidden },
    });
    ok(await moderate(site.services, moderator, "restore", "reply", id));
    ok(await deleteForumPost(site.services, author, "reply", id));
    expect(await flagPost(site.services, await member(db()), post, { reason: "spam", note: "" })).toMatchObject({ ok: false, status: 404 });
    expect(await flagPost(site.services, flagger, { kind: "discussion", id: 2_147_483_647 }, { reason: "spam", note: "" })).toMatchObject({ status: 404 });
    const flags = await db().selectFrom("flag").select("flagger_id").where("kind", "=", "reply").where("post_id", "=", id).execute();
    expect(flags).toEqual([{ flagger_id: flagger.id }]);
  });

  it("counts 50 parallel flags on one post once each and hides it exactly once", async () => {
    const { id, post, author } = await flaggedReply();
    const flaggers = await Promise.all(Array.from({ length: 50 }, () => member(db())));
    const outcomes = await Promise.all(flaggers.map((f) => flagPost(site.services, f, post, { reason: "spam", note: "" })));
    // Those who came after the post was hidden are told it is hidden already.
    const flagged = outcomes.filter((o) => o.ok).length;
    expect(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.status === 409 && o.errors.form === FLAG_MESSAGES.hidden)).toBe(true);
    expect(flagged).toBeGreaterThanOrEqual(3);
    const rows = await db().selectFrom("flag").select("id").where("kind", "=", "reply").where("post_id", "=", id).execute();
    expect(rows).toHaveLength(flagged);
    expect((await logOf(id)).map((l) => l.action)).toEqual(["auto-hide"]);
    expect((await linesOf(author)).filter((n) => n.kind === "moderation.flagged")).toHaveLength(1);
    const item = await db().selectFrom("review_item").selectAll().where("kind", "=", "reply").where("post_id", "=", id).executeTakeFirstOrThrow();
    expect(Number(item.flags)).toBe(flagged);
    expect(Number(item.weight)).toBe(flagged * 100);
    expect(Number(item.weight)).toBeGreaterThanOrEqual(FLAG_THRESHOLD);
  });

  it("spam flags on a new member's first posts hide their other posts of the day and silence them until a moderator clears the post", async () => {
    const d = await discussion(site.services);
    const newcomer = await member(db());
    const first = ok(await postReply(site.services, newcomer, d.id, { body: "Hello from a new member.", submissionKey: crypto.randomUUID() }));
    const second = ok(await postReply(site.services, newcomer, d.id, { body: "Another friendly hello here.", submissionKey: crypto.randomUUID() }));
    const post = { kind: "reply" as const, id: second.id };
    for (let i = 0; i < 3; i++) ok(await flagPost(site.services, await member(db()), post, { reason: "spam", note: "" }));
    expect(await hiddenAt(first.id)).not.toBeNull();
    expect(await hiddenAt(second.id)).not.toBeNull();
    const silenced = await db().selectFrom("member").select(["silenced_until", "silence_reason"]).where("id", "=", newcomer.id).executeTakeFirstOrThrow();
    expect(silenced.silence_reason).toBe(SPAM_SILENCE_REASON);
    const queue = await reviewQueue(db());
    expect(queue.items.find((i) => i.key === `reply:${first.id}`)).toMatchObject({ hiddenByFlags: true, flags: [] });

    ok(await decideReview(site.services, moderator, post, "disagree"));
    const lifted = await db().selectFrom("member").select(["silenced_until"]).where("id", "=", newcomer.id).executeTakeFirstOrThrow();
    expect(lifted.silenced_until).toBeNull();
    // The other post waits for its own decision.
    expect(await hiddenAt(first.id)).not.toBeNull();
    ok(await decideReview(site.services, moderator, { kind: "reply", id: first.id }, "disagree"));
    expect(await hiddenAt(first.id)).toBeNull();

    // Flags of another reason hide the one post alone.
    const other = await member(db());
    const a = ok(await postReply(site.services, other, d.id, { body: "My first words here.", submissionKey: crypto.randomUUID() }));
    const b = ok(await postReply(site.services, other, d.id, { body: "My second words here.", submissionKey: crypto.randomUUID() }));
    for (let i = 0; i < 3; i++) ok(await flagPost(site.services, await member(db()), { kind: "reply", id: b.id }, { reason: "abusive", note: "" }));
    expect(await hiddenAt(b.id)).not.toBeNull();
    expect(await hiddenAt(a.id)).toBeNull();
  });

  it("agreeing may also silence the author for a while; a period out of range decides nothing", async () => {
    const { post, author, id } = await flaggedReply();
    ok(await flagPost(site.services, moderator, post, { reason: "abusive", note: "" }));
    expect(await decideReview(site.services, moderator, post, "agree", { silenceDays: 400 })).toMatchObject({ ok: false, status: 400 });
    expect((await reviewQueue(db())).items.some((i) => i.key === `reply:${id}`)).toBe(true);
    expect(ok(await decideReview(site.services, moderator, post, "agree", { silenceDays: 7 }))).toEqual({ hidden: true, deleted: false });
    const row = await db().selectFrom("member").select(["silenced_until", "silence_reason"]).where("id", "=", author.id).executeTakeFirstOrThrow();
    expect(row.silence_reason).toBe(REVIEW_SILENCE_REASON);
    expect(new Date(row.silenced_until!).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
  });

  it("agreeing may also delete the post and warn its author in the moderator's words, each in the log; the other decisions take neither", async () => {
    const { post, author, id, d } = await flaggedReply();
    // The author hears no news of hidden posts, but a warning about themselves comes all the same.
    await saveNotificationSettings(site.services, author, [{ kind: "moderation", inSite: false, byMail: false }]);
    ok(await flagPost(site.services, moderator, post, { reason: "spam", note: "" }));
    const tooLong = await decideReview(site.services, moderator, post, "agree", { warning: "x".repeat(501), remove: true });
    expect(tooLong).toMatchObject({ ok: false, status: 400, errors: { warning: FLAG_MESSAGES.warningLong } });
    expect((await db().selectFrom("reply").select("deleted_at").where("id", "=", id).executeTakeFirstOrThrow()).deleted_at).toBeNull();

    const words = "Selling watches here is not welcome.";
    expect(ok(await decideReview(site.services, moderator, post, "agree", { warning: `  ${words}  `, remove: true }))).toEqual({ hidden: true, deleted: true });
    expect((await db().selectFrom("reply").select("deleted_at").where("id", "=", id).executeTakeFirstOrThrow()).deleted_at).not.toBeNull();
    expect((await logOf(id)).map((l) => l.action)).toEqual(["auto-hide", "agree", "delete", "warn"]);
    const warned = (await linesOf(author)).find((n) => n.kind === "moderation.warned");
    expect(warned).toMatchObject({ title: words, actor: null });
    expect((await linesOf(author)).some((n) => n.kind === "moderation.flagged" || n.kind === "moderation.hidden")).toBe(false);
    const opened = await openNotification(site.services, author, warned!.id);
    expect(opened.ok && opened.value).toContain(`/${d.id}-`);

    // Disagreeing with flags on another post deletes nothing and warns nobody, whatever the form held.
    const other = await flaggedReply();
    ok(await flagPost(site.services, moderator, other.post, { reason: "spam", note: "" }));
    expect(ok(await decideReview(site.services, moderator, other.post, "disagree", { warning: "Never sent", remove: true }))).toEqual({
      hidden: false,
      deleted: false,
    });
    expect((await logOf(other.id)).map((l) => l.action)).toEqual(["auto-hide", "restore", "disagree"]);
    expect((await linesOf(other.author)).some((n) => n.kind === "moderation.warned")).toBe(false);
  });
});
