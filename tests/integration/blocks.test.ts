import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { BLOCK_MESSAGES, setBlocked } from "~/.server/domain/blocks/block-service";
import { commentOnCreation } from "~/.server/domain/forge/forge-engagement";
import { postReply } from "~/.server/domain/forum/forum-service";
import { notificationsPage } from "~/.server/domain/notifications/notification-service";
import { setReaction } from "~/.server/domain/reactions/reaction-service";
import { rankById } from "~/lib/ranks";
import { creation, discussion, member } from "../factories";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

const site = testSiteForFile();
const db = () => site.services.db;
const acolyte = (name?: string) => member(db(), { xp: rankById("acolyte").minXp, ...(name ? { name } : {}) });
const reply = (by: Viewer, discussionId: number, body: string) => postReply(site.services, by, discussionId, { body, submissionKey: crypto.randomUUID() });
const linesOf = async (m: Viewer) => (await notificationsPage(db(), m, null)).items;

describe(`blocking on ${ENGINE}`, () => {
  it("neither replies to the other's discussions nor comments on the other's creations, nor is told of the other; unblocked, both may again", async () => {
    const ana = await acolyte("Ana Blocker");
    const ben = await acolyte("Ben Blocked");
    const anasDiscussion = await discussion(site.services, { author: ana });
    const bensDiscussion = await discussion(site.services, { author: ben });
    const bensCreation = (await creation(db(), { author: ben })).id;
    expect(await setBlocked(site.services, ana, ben.id, true)).toEqual({ ok: true, value: null });

    expect(await reply(ben, anasDiscussion.id, "May I add something?")).toEqual({ ok: false, status: 403, errors: { form: BLOCK_MESSAGES.reply } });
    expect(await reply(ana, bensDiscussion.id, "A word from me.")).toEqual({ ok: false, status: 403, errors: { form: BLOCK_MESSAGES.reply } });
    expect(await commentOnCreation(site.services, ana, bensCreation, { body: "Nice.", submissionKey: crypto.randomUUID() })).toEqual({
      ok: false,
      status: 403,
      errors: { form: BLOCK_MESSAGES.comment },
    });

    // Elsewhere, Ben's mention and reaction tell Ana nothing.
    const elsewhere = await discussion(site.services);
    const anasReply = await reply(ana, elsewhere.id, "Sitting at noon works for me.");
    if (!anasReply.ok) throw new Error("reply");
    const before = (await linesOf(ana)).length;
    const handle = (await db().selectFrom("member").select("handle").where("id", "=", ana.id).executeTakeFirstOrThrow()).handle;
    expect((await reply(ben, elsewhere.id, `What do you think, @${handle}?`)).ok).toBe(true);
    expect((await setReaction(site.services, ben, { kind: "reply", id: anasReply.value.id }, "thanks", true)).ok).toBe(true);
    expect((await linesOf(ana)).length).toBe(before);

    expect((await setBlocked(site.services, ana, ben.id, false)).ok).toBe(true);
    expect((await reply(ben, anasDiscussion.id, "May I add something now?")).ok).toBe(true);
  });

  it("refuses blocking oneself, a moderator, or no one", async () => {
    const ana = await member(db());
    const moderator = await member(db(), { role: "moderator" });
    expect(await setBlocked(site.services, ana, ana.id, true)).toEqual({ ok: false, status: 400, errors: { form: BLOCK_MESSAGES.self } });
    expect(await setBlocked(site.services, ana, moderator.id, true)).toEqual({ ok: false, status: 403, errors: { form: BLOCK_MESSAGES.moderator } });
    expect(await setBlocked(site.services, ana, "no-such-member", true)).toMatchObject({ ok: false, status: 404 });
    expect(await db().selectFrom("member_block").select("blocked_id").where("member_id", "=", ana.id).execute()).toEqual([]);
  });
});
