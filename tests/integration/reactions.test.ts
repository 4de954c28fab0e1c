import { describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { setLiked } from "~/.server/domain/forge/forge-engagement";
import { deleteForumPost, moderate, postReply } from "~/.server/domain/forum/forum-service";
import { notificationsPage } from "~/.server/domain/notifications/notification-service";
import { reactionBars, reactionsPage } from "~/.server/domain/reactions/reaction-read-model";
import { reactionBarHtml } from "~/components/community/reaction-bar.server";
import { OWN_REACTION_MESSAGE, setReaction } from "~/.server/domain/reactions/reaction-service";
import { INITIATE_DAILY_REACTIONS, INITIATE_DAILY_REACTIONS_MESSAGE } from "~/lib/privileges";
import { REACTION_LIMIT } from "~/lib/limits";
import { REACTION_NAMES, type Reaction } from "~/lib/reactions";
import { rankById } from "~/lib/ranks";
import { creation, discussion, member, question } from "../factories";
import { ledgerXp } from "./ledger-xp";
import { ENGINE } from "./test-services";
import { moderatorForFile, ok, testSiteForFile } from "./file-site";

const site = testSiteForFile();
const moderator = moderatorForFile(site);

const db = () => site.services.db;
const acolyte = () => member(db(), { xp: rankById("acolyte").minXp });
const reply = async (discussionId: number, author?: Viewer) =>
  ok(await postReply(site.services, author ?? (await acolyte()), discussionId, { body: "A reply to react to.", submissionKey: crypto.randomUUID() })).id;
const rowsOf = (memberId: string) => db().selectFrom("reaction").selectAll().where("member_id", "=", memberId).execute();
const storedCount = async (kind: string, id: number, reaction: Reaction) =>
  Number(
    (
      await db()
        .selectFrom("reaction_count")
        .select("count")
        .where("kind", "=", kind as "reply")
        .where("post_id", "=", id)
        .where("reaction", "=", reaction)
        .executeTakeFirst()
    )?.count ?? 0,
  );

describe(`reactions on ${ENGINE}`, () => {
  it("a member gives any post each reaction once from the first day, takes it back, and the kept counts follow", async () => {
    const d = await discussion(site.services);
    const r = await reply(d.id);
    const newcomer = await member(db());
    const other = await member(db());

    expect(ok(await setReaction(site.services, newcomer, { kind: "reply", id: r }, "thanks", true)).counts).toMatchObject({ thanks: 1, strength: 0 });
    // A repeat asks for the state it has: nothing moves.
    expect(ok(await setReaction(site.services, newcomer, { kind: "reply", id: r }, "thanks", true)).counts.thanks).toBe(1);
    ok(await setReaction(site.services, newcomer, { kind: "reply", id: r }, "strength", true));
    ok(await setReaction(site.services, other, { kind: "reply", id: r }, "thanks", true));
    expect(await storedCount("reply", r, "thanks")).toBe(2);
    expect(await storedCount("reply", r, "strength")).toBe(1);
    expect((await rowsOf(newcomer.id)).map((row) => row.reaction).sort()).toEqual(["strength", "thanks"]);

    expect(ok(await setReaction(site.services, newcomer, { kind: "reply", id: r }, "thanks", false)).counts).toMatchObject({ thanks: 1, strength: 1 });
    // Taking back what was never given changes nothing.
    expect(ok(await setReaction(site.services, newcomer, { kind: "reply", id: r }, "thanks", false)).counts.thanks).toBe(1);
    expect(await storedCount("reply", r, "thanks")).toBe(1);

    // Every kind of post takes reactions.
    const q = await question(site.services);
    const c = (await creation(db(), { author: await acolyte() })).id;
    ok(await setReaction(site.services, newcomer, { kind: "discussion", id: d.id }, "inspiring", true));
    ok(await setReaction(site.services, newcomer, { kind: "question", id: q.id }, "insightful", true));
    ok(await setReaction(site.services, newcomer, { kind: "creation", id: c }, "inspiring", true));
    expect((await rowsOf(newcomer.id)).length).toBe(4);

    // The page's bars: counts for everyone, pressed buttons for the member, none for the author.
    const targets = [{ kind: "reply" as const, id: r, mine: false, deleted: false, hidden: false, back: "/here#reply" }];
    const forNewcomer = reactionBarHtml((await reactionBars(db(), newcomer, targets)).get(`reply:${r}`));
    expect(forNewcomer).toContain('value="remove:strength" aria-pressed="true"');
    expect(forNewcomer).toContain('value="add:thanks" aria-pressed="false"');
    const forVisitor = reactionBarHtml((await reactionBars(db(), null, targets)).get(`reply:${r}`));
    expect(forVisitor).not.toContain("<button");
    expect(forVisitor).toContain("Thanks");
    expect(forVisitor).toContain(`href="/reactions/reply/${r}"`);
    const page = await reactionsPage(db(), null, { kind: "reply", id: r });
    expect(page?.reactions.map((x) => [x.reaction, x.count, x.members.map((m) => m.name)])).toEqual([
      ["thanks", 1, [other.name]],
      ["strength", 1, [newcomer.name]],
    ]);
  });

  it("refuses one's own post, and a hidden, deleted or missing one, changing nothing", async () => {
    const author = await acolyte();
    const d = await discussion(site.services, { author });
    const r = await reply(d.id, author);
    const fan = await acolyte();
    expect(await setReaction(site.services, author, { kind: "reply", id: r }, "thanks", true)).toEqual({
      ok: false,
      status: 403,
      errors: { form: OWN_REACTION_MESSAGE },
    });

    ok(await moderate(site.services, moderator, "hide", "reply", r));
    expect(await setReaction(site.services, fan, { kind: "reply", id: r }, "thanks", true)).toMatchObject({ ok: false, status: 404 });
    ok(await moderate(site.services, moderator, "restore", "reply", r));
    // Under a hidden discussion, a reply takes none either.
    ok(await moderate(site.services, moderator, "hide", "discussion", d.id));
    expect(await setReaction(site.services, fan, { kind: "reply", id: r }, "thanks", true)).toMatchObject({ ok: false, status: 404 });
    expect(await reactionsPage(db(), fan, { kind: "reply", id: r })).toBeNull();
    expect(await reactionsPage(db(), moderator, { kind: "reply", id: r })).not.toBeNull();
    ok(await moderate(site.services, moderator, "restore", "discussion", d.id));

    ok(await deleteForumPost(site.services, author, "reply", r));
    expect(await setReaction(site.services, fan, { kind: "reply", id: r }, "thanks", true)).toMatchObject({ ok: false, status: 404 });
    expect(await setReaction(site.services, fan, { kind: "answer", id: 2_147_483_647 }, "thanks", true)).toMatchObject({ ok: false, status: 404 });
    expect(await rowsOf(fan.id)).toEqual([]);
  });

  it("tells the author once per post, gathering reactions on one line, and gives no XP", async () => {
    const author = await acolyte();
    const d = await discussion(site.services, { author, title: "Cold showers at dawn" });
    const before = await ledgerXp(db(), author.id);
    const [first, second] = [await member(db(), { name: "Amara First" }), await acolyte()];
    ok(await setReaction(site.services, first, { kind: "discussion", id: d.id }, "thanks", true));
    ok(await setReaction(site.services, first, { kind: "discussion", id: d.id }, "strength", true));
    ok(await setReaction(site.services, second, { kind: "discussion", id: d.id }, "inspiring", true));
    const lines = (await notificationsPage(db(), author, null)).items.filter((n) => n.kind === "reaction");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ title: "Cold showers at dawn", others: 1 });
    // Taken back: the line stops counting them.
    ok(await setReaction(site.services, second, { kind: "discussion", id: d.id }, "inspiring", false));
    expect((await notificationsPage(db(), author, null)).items.filter((n) => n.kind === "reaction")[0]).toMatchObject({ others: 0 });
    expect(await ledgerXp(db(), author.id)).toBe(before);
  });

  it(`holds an initiate to ${INITIATE_DAILY_REACTIONS} reactions and likes in 24 hours, counted together; an acolyte has no daily limit`, async () => {
    const initiate = await member(db());
    const d = await discussion(site.services);
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await reply(d.id));
    const c = (await creation(db(), { author: await acolyte() })).id;
    const at = new Date("2026-12-04T10:00:00Z");
    const minute = (n: number) => new Date(at.getTime() + n * 60_000);
    // A like in the Forge is one of them.
    expect(ok(await setLiked(site.services, initiate, c, true, minute(0))).likes).toBe(1);
    let given = 1;
    for (const r of replies) {
      for (const reaction of REACTION_NAMES) {
        if (given === INITIATE_DAILY_REACTIONS) break;
        ok(await setReaction(site.services, initiate, { kind: "reply", id: r }, reaction, true, minute(given)));
        given++;
      }
    }
    expect(await setReaction(site.services, initiate, { kind: "discussion", id: d.id }, "thanks", true, minute(30))).toEqual({
      ok: false,
      status: 429,
      errors: { form: INITIATE_DAILY_REACTIONS_MESSAGE },
    });
    // Taking one back is always allowed, and gives no reaction back for the day.
    ok(await setReaction(site.services, initiate, { kind: "reply", id: replies[0]! }, "thanks", false, minute(31)));
    expect(await setReaction(site.services, initiate, { kind: "discussion", id: d.id }, "thanks", true, minute(32))).toMatchObject({ status: 429 });
    // A day after the first of them (the like), one more may be given, and only one.
    const dayLater = new Date(minute(24 * 60).getTime() + 30_000);
    ok(await setReaction(site.services, initiate, { kind: "discussion", id: d.id }, "thanks", true, dayLater));
    expect(await setReaction(site.services, initiate, { kind: "discussion", id: d.id }, "strength", true, dayLater)).toMatchObject({ status: 429 });

    const steady = await acolyte();
    let count = 0;
    for (const r of replies) {
      for (const reaction of REACTION_NAMES) {
        ok(await setReaction(site.services, steady, { kind: "reply", id: r }, reaction, true, minute(count * 2)));
        count++;
      }
    }
    ok(await setReaction(site.services, steady, { kind: "discussion", id: d.id }, "thanks", true, minute(60)));
    expect((await rowsOf(steady.id)).length).toBe(INITIATE_DAILY_REACTIONS + 1);
  });

  it(`refuses a script's 1,000 reactions in a minute past ${REACTION_LIMIT.max}, saying when to try again`, async () => {
    const script = await acolyte();
    const d = await discussion(site.services);
    const replies = [];
    for (let i = 0; i < 10; i++) replies.push(await reply(d.id));
    const at = new Date("2026-12-04T12:00:00Z");
    // Ten replies and four reactions: 40 different ones, asked for over and over. A repeat of one
    // given already changes nothing and is no refusal; every other one past the limit is a 429.
    const given = new Set<string>();
    let refused = 0;
    let expectedRefusals = 0;
    for (let i = 0; i < 1000; i++) {
      const r = replies[i % replies.length]!;
      const reaction = REACTION_NAMES[Math.floor(i / replies.length) % REACTION_NAMES.length]!;
      if (!given.has(`${r}:${reaction}`) && given.size >= REACTION_LIMIT.max) expectedRefusals++;
      const outcome = await setReaction(site.services, script, { kind: "reply", id: r }, reaction, true, new Date(at.getTime() + i * 50));
      if (outcome.ok) given.add(`${r}:${reaction}`);
      else {
        refused++;
        expect(outcome).toMatchObject({ status: 429, errors: { form: expect.stringMatching(/^Too many attempts\. Try again in 1 minute\.$/) } });
      }
    }
    expect((await rowsOf(script.id)).length).toBe(REACTION_LIMIT.max);
    expect(refused).toBe(expectedRefusals);
    expect(refused).toBeGreaterThan(200);
  }, 60_000);

  it("counts 50 parallel reactions exactly: from 50 members one each, from one initiate only what is left of the day", async () => {
    const d = await discussion(site.services);
    const r = await reply(d.id);
    const members = await Promise.all(Array.from({ length: 50 }, () => member(db())));
    const outcomes = await Promise.all(members.map((m) => setReaction(site.services, m, { kind: "reply", id: r }, "thanks", true)));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(await storedCount("reply", r, "thanks")).toBe(50);

    // The same reaction 50 times at once from one member: one row, counted once.
    const eager = await acolyte();
    const same = await Promise.all(Array.from({ length: 50 }, () => setReaction(site.services, eager, { kind: "reply", id: r }, "strength", true)));
    expect(same.every((o) => o.ok)).toBe(true);
    expect(await storedCount("reply", r, "strength")).toBe(1);

    // An initiate with 15 given today sends 50 different ones at once: exactly 5 pass.
    const initiate = await member(db());
    const replies = [];
    for (let i = 0; i < 17; i++) replies.push(await reply(d.id));
    const wanted = replies.flatMap((id) => REACTION_NAMES.map((reaction) => ({ id, reaction })));
    const at = new Date();
    for (const w of wanted.slice(0, 15)) ok(await setReaction(site.services, initiate, { kind: "reply", id: w.id }, w.reaction, true, at));
    const rest = wanted.slice(15, 65);
    const parallel = await Promise.all(rest.map((w) => setReaction(site.services, initiate, { kind: "reply", id: w.id }, w.reaction, true, at)));
    expect(parallel.filter((o) => o.ok)).toHaveLength(5);
    expect(parallel.filter((o) => !o.ok && o.status === 429)).toHaveLength(45);
    expect((await rowsOf(initiate.id)).length).toBe(INITIATE_DAILY_REACTIONS);
    const counted = await db()
      .selectFrom("reaction_count")
      .select((eb) => eb.fn.sum<number>("count").as("n"))
      .where("kind", "=", "reply")
      .where(
        "post_id",
        "in",
        replies.map((id) => id),
      )
      .executeTakeFirst();
    expect(Number(counted?.n)).toBe(INITIATE_DAILY_REACTIONS);
  }, 60_000);
});
