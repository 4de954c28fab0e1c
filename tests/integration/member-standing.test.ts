import { describe, expect, it } from "vitest";
import { discussionWithReplies } from "~/.server/domain/forum/forum-read-model";
import { postReply } from "~/.server/domain/forum/forum-service";
import { awardXp, progressOf, ranksOf, revokeXp } from "~/.server/domain/progression/progression-service";
import { noticeRankUp } from "~/.server/domain/progression/rank-up";
import { withPageTags } from "~/.server/cache/page-tags";
import { VIRTUE_IDS } from "~/lib/virtues";
import { XP } from "~/lib/xp";
import { attempt, challenge, discussion, grantXp, member } from "../factories";
import { ledgerXp } from "./ledger-xp";
import { ENGINE } from "./test-services";
import { testSiteForFile } from "./file-site";

const site = testSiteForFile();
const rowOf = (id: string) => site.services.db.selectFrom("member").select(["xp", "rank"]).where("id", "=", id).executeTakeFirstOrThrow();

describe(`XP and rank on the member row on ${ENGINE} (ADR 0027)`, () => {
  it("50 awards in parallel transactions leave the row's XP equal to the ledger's sum", async () => {
    const m = await member(site.services.db);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => site.services.db.transaction().execute((trx) => awardXp(trx, m.id, "reply.posted", `parallel-${i}`))),
    );
    expect(await ledgerXp(site.services.db, m.id)).toBe(50 * XP["reply.posted"]);
    expect(await rowOf(m.id)).toEqual({ xp: 100, rank: "acolyte" });
    // Half of them taken back, in parallel too.
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => site.services.db.transaction().execute((trx) => revokeXp(trx, m.id, "reply.posted", `parallel-${i}`))),
    );
    expect(await ledgerXp(site.services.db, m.id)).toBe(50);
  });

  it("an award that rolls back leaves the row as it was", async () => {
    const m = await member(site.services.db, { xp: 40 });
    await expect(
      site.services.db.transaction().execute(async (trx) => {
        await awardXp(trx, m.id, "answer.accepted", "rolled-back");
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    expect(await rowOf(m.id)).toEqual({ xp: 40, rank: "initiate" });
  });

  it("the rank moves with XP both ways, and master waits for the virtues; a rank change names the member's tag", async () => {
    const db = site.services.db;
    const m = await member(db, { xp: 2990 });
    expect((await rowOf(m.id)).rank).toBe("warlord");
    const tags = { reads: new Set<string>(), writes: new Set<string>() };
    await withPageTags(tags, () => db.transaction().execute((trx) => awardXp(trx, m.id, "answer.accepted", "to-3005")));
    expect(await rowOf(m.id)).toEqual({ xp: 3005, rank: "warlord" });
    expect(tags.writes.has(`member:${m.id}`)).toBe(false);
    const span = { startsOn: "2026-01-01", endsOn: "2026-01-07" };
    for (const virtue of VIRTUE_IDS) {
      for (let i = 0; i < 3; i++) await attempt(db, m.id, (await challenge(db, { virtues: [virtue] })).id, { ...span, status: "completed" });
    }
    expect((await rowOf(m.id)).rank).toBe("master");
    expect((await progressOf(db, m.id)).rank.id).toBe("master");
    await withPageTags(tags, () => db.transaction().execute((trx) => revokeXp(trx, m.id, "answer.accepted", "to-3005")));
    expect(await rowOf(m.id)).toEqual({ xp: 2990, rank: "warlord" });
    expect(tags.writes.has(`member:${m.id}`)).toBe(true);
    expect(await ledgerXp(db, m.id)).toBe(2990);
  });

  it("pages show the rank the member row holds (author lists, ranksOf, the rank-up toast)", async () => {
    const db = site.services.db;
    const d = await discussion(site.services);
    const replier = await member(db, { xp: 60 });
    const replied = await postReply(site.services, replier, d.id, { body: "A reply.", submissionKey: crypto.randomUUID() });
    expect(replied.ok).toBe(true);
    expect(await noticeRankUp(db, replier.id)).toBeNull(); // first look: recorded, no toast
    // The row, not the ledger, is what pages read: a rank written on the row (as only the ledger's
    // transaction would) is the one shown.
    await db.updateTable("member").set({ rank: "sage" }).where("id", "=", replier.id).execute();
    const page = (await discussionWithReplies(db, null, d.id, { kind: "first" }))!;
    expect(page.replies.map((r) => r.author.rank)).toEqual(["sage"]);
    expect(page.discussion.author.rank).toBe((await rowOf(d.author.id)).rank);
    expect((await ranksOf(db, [replier.id])).get(replier.id)?.id).toBe("sage");
    expect((await noticeRankUp(db, replier.id))?.id).toBe("sage");
    expect(await noticeRankUp(db, replier.id)).toBeNull();
  });

  it("test grants and factory members keep the row too", async () => {
    const m = await member(site.services.db, { xp: 150 });
    await grantXp(site.services.db, m.id, 250);
    expect(await ledgerXp(site.services.db, m.id)).toBe(400);
    expect((await rowOf(m.id)).rank).toBe("sage");
  });
});
