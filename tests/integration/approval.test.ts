import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { decideReview } from "~/.server/domain/flags/flag-service";
import { reviewQueue } from "~/.server/domain/flags/review-read-model";
import { postReply } from "~/.server/domain/forum/forum-service";
import { notificationsPage } from "~/.server/domain/notifications/notification-service";
import { rankById } from "~/lib/ranks";
import { discussion, member } from "../factories";
import { ledgerXp } from "./ledger-xp";
import { ENGINE } from "./test-services";
import { moderatorForFile, testSiteForFile } from "./file-site";

const site = testSiteForFile();
const moderator = moderatorForFile(site);

const db = () => site.services.db;
const reply = async (by: Viewer, discussionId: number, body: string) => {
  const posted = await postReply(site.services, by, discussionId, { body, submissionKey: crypto.randomUUID() });
  if (!posted.ok) throw new Error(JSON.stringify(posted));
  return posted.value;
};
const replyRow = (id: number) => db().selectFrom("reply").select(["hidden_at"]).where("id", "=", id).executeTakeFirstOrThrow();
const replyCount = async (discussionId: number) =>
  Number((await db().selectFrom("discussion").select("reply_count").where("id", "=", discussionId).executeTakeFirstOrThrow()).reply_count);

describe(`a new member's first posts on ${ENGINE}`, () => {
  it("a first post with many links waits, hidden and uncounted, for approval; its author is told; approved, it shows and earns its XP", async () => {
    const d = await discussion(site.services, { title: "Favourite cushions" });
    const newcomer = await member(db());
    const xpBefore = await ledgerXp(db(), newcomer.id);
    const posted = await reply(newcomer, d.id, "Best cushions: https://cushions.example and https://mats.example");
    expect(posted.pending).toBe(true);
    expect((await replyRow(posted.id)).hidden_at).not.toBeNull();
    expect(await replyCount(d.id)).toBe(0);
    expect(await ledgerXp(db(), newcomer.id)).toBe(xpBefore);
    const told = (await notificationsPage(db(), newcomer, null)).items.find((n) => n.kind === "moderation.pending");
    expect(told).toMatchObject({ title: "Favourite cushions", actor: null });
    const item = (await reviewQueue(db())).items.find((i) => i.key === `reply:${posted.id}`);
    expect(item).toMatchObject({ approval: true, flags: [] });

    const approved = await decideReview(site.services, moderator, { kind: "reply", id: posted.id }, "disagree");
    expect(approved).toEqual({ ok: true, value: { hidden: false, deleted: false } });
    expect((await replyRow(posted.id)).hidden_at).toBeNull();
    expect(await replyCount(d.id)).toBe(1);
    expect(await ledgerXp(db(), newcomer.id)).toBeGreaterThan(xpBefore);
  });

  it("one site in every post, and text posted again elsewhere, wait too; rejected, a post stays hidden; an acolyte's never wait", async () => {
    const [d1, d2] = [await discussion(site.services), await discussion(site.services)];
    const newcomer = await member(db());
    expect((await reply(newcomer, d1.id, "I sell mats at https://shop.example")).pending).toBe(false);
    const same = await reply(newcomer, d2.id, "More mats: https://www.shop.example/new");
    expect(same.pending).toBe(true);
    expect(await decideReview(site.services, moderator, { kind: "reply", id: same.id }, "agree")).toEqual({
      ok: true,
      value: { hidden: true, deleted: false },
    });
    expect((await replyRow(same.id)).hidden_at).not.toBeNull();

    const echo = await member(db());
    expect((await reply(echo, d1.id, "Sitting every morning changed my life.")).pending).toBe(false);
    expect((await reply(echo, d2.id, "Sitting every morning changed my life.")).pending).toBe(true);

    const acolyte = await member(db(), { xp: rankById("acolyte").minXp });
    expect((await reply(acolyte, d1.id, "Links: https://a.example https://b.example")).pending).toBe(false);
  });
});
