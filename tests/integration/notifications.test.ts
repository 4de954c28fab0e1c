import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { postReply, setTopicMembership, editForumPost } from "~/.server/domain/forum/forum-service";
import { acceptAnswer, setHelpful } from "~/.server/domain/council/council-service";
import { commentOnCreation, setLiked } from "~/.server/domain/forge/forge-engagement";
import { cancelEvent, editEvent, rsvp } from "~/.server/domain/events/event-service";
import { deleteOwnPost, setPostHidden } from "~/.server/domain/posts/pipeline";
import {
  markAllRead,
  notificationsPage,
  openNotification,
  saveNotificationSettings,
  setMemberMuted,
  setWatching,
  unreadCount,
} from "~/.server/domain/notifications/notification-service";
import { deleteMemberNotifications } from "~/.server/domain/notifications/notification-repository";
import { discussionReader, markDiscussionRead } from "~/.server/domain/notifications/read-markers";
import { rankById } from "~/lib/ranks";
import { notificationText } from "~/lib/notifications";
import { answer, creation, discussion, event, grantXp, member as newMember, question, topic } from "../factories";
import { createTestSite, ENGINE, type TestSite } from "./test-services";

/**
 * Members are told (issue 28): every kind of notification, written in the transaction of what
 * causes it, and every refusal — oneself, a muted member, a muted place, a kind turned off, a post
 * that can no longer be seen, another member's notification.
 */

let site: TestSite;

const acolyte = () => newMember(site.services.db, { xp: rankById("acolyte").minXp });
const key = () => randomUUID();

async function reply(viewer: Viewer, discussionId: number, body: string) {
  const posted = await postReply(site.services, viewer, discussionId, { body, submissionKey: key() });
  if (!posted.ok) throw new Error(JSON.stringify(posted));
  return posted.value.id;
}

/**
 * The member's notifications as stored, newest first. The factories give members XP, which raises
 * their rank and tells them so: those lines are left out here except where ranks are the point.
 */
async function notificationsOf(viewer: Viewer, { ranks = false } = {}) {
  return site.services.db
    .selectFrom("notification")
    .select(["id", "kind", "actor_id", "others", "subject", "parent", "title", "url", "read_at"])
    .where("member_id", "=", viewer.id)
    .$if(!ranks, (q) => q.where("kind", "!=", "rank"))
    .orderBy("id", "desc")
    .execute();
}

/** The bell's count, less the rank lines the factories caused. */
async function unread(viewer: Viewer) {
  const ranks = await site.services.db
    .selectFrom("notification")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("member_id", "=", viewer.id)
    .where("kind", "=", "rank")
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return (await unreadCount(site.services.db, viewer.id)) - Number(ranks.n);
}

beforeAll(async () => {
  site = await createTestSite();
});

afterAll(async () => {
  await site?.close();
});

describe(`notifications on ${ENGINE}`, () => {
  it("a reply tells the discussion's starter, with the exact place, and never the replier", async () => {
    const d = await discussion(site.services);
    const replier = await acolyte();
    const id = await reply(replier, d.id, "I sat for ten minutes.");
    const [line] = await notificationsOf(d.author);
    expect(line).toMatchObject({ kind: "reply", actor_id: replier.id, subject: `reply:${id}`, parent: `discussion:${d.id}`, title: d.title, read_at: null });
    expect(line!.url).toBe(`/${d.section}/${d.topicId}/${d.id}-${d.slug}${id > 1 ? `?after=${id - 1}` : ""}#reply-${id}`);
    expect(await notificationsOf(replier)).toEqual([]);
    // The starter replying in their own discussion tells nobody.
    await reply(d.author, d.id, "Thank you.");
    expect(await notificationsOf(d.author)).toHaveLength(1);
    // The replier now watches it: the starter's reply told them.
    expect((await notificationsOf(replier)).map((n) => n.kind)).toEqual(["reply"]);
  });

  it("an @mention tells the member named, once, as a mention rather than a reply; code, strangers and the deleted are no mention", async () => {
    const d = await discussion(site.services);
    const replier = await acolyte();
    const named = await acolyte();
    const id = await reply(replier, d.id, `@${named.handle} and @${d.author.handle}, look. Not \`@${named.handle}\`, nor @nobody-here-${key().slice(0, 6)}.`);
    expect((await notificationsOf(named)).map((n) => [n.kind, n.subject])).toEqual([["mention", `reply:${id}`]]);
    // The starter is named too: one line, the mention.
    expect((await notificationsOf(d.author)).map((n) => n.kind)).toEqual(["mention"]);
    const html = await site.services.db.selectFrom("reply").select("body_html").where("id", "=", id).executeTakeFirstOrThrow();
    expect(html.body_html).toContain(`href="/members/${named.handle}"`);
    expect(html.body_html).not.toContain('nobody-here-"');
  });

  it("of 25 members named in one post, the first 20 are told and all 25 are links", async () => {
    const d = await discussion(site.services);
    const replier = await acolyte();
    const named = [];
    for (let i = 0; i < 25; i++) named.push(await newMember(site.services.db));
    const body = named.map((m) => `@${m.handle}`).join(" ") + " " + Array.from({ length: 175 }, (_, i) => `@ghost-${i}`).join(" ");
    const id = await reply(replier, d.id, body);
    const told = await site.services.db
      .selectFrom("notification")
      .select("member_id")
      .where("subject", "=", `reply:${id}`)
      .where("kind", "=", "mention")
      .execute();
    expect(new Set(told.map((t) => t.member_id))).toEqual(new Set(named.slice(0, 20).map((m) => m.id)));
    const { body_html } = await site.services.db.selectFrom("reply").select("body_html").where("id", "=", id).executeTakeFirstOrThrow();
    for (const m of named) expect(body_html).toContain(`href="/members/${m.handle}"`);
  });

  it("an edit tells only those it names for the first time", async () => {
    const d = await discussion(site.services);
    const replier = await acolyte();
    const first = await acolyte();
    const second = await acolyte();
    const id = await reply(replier, d.id, `Hello @${first.handle}`);
    const edited = await editForumPost(site.services, replier, "reply", id, { body: `Hello @${first.handle} and @${second.handle}` });
    expect(edited.ok).toBe(true);
    expect(await notificationsOf(first)).toHaveLength(1);
    expect((await notificationsOf(second)).map((n) => n.kind)).toEqual(["mention"]);
  });

  it("a muted member's replies and mentions tell nothing; unmuted, they do again", async () => {
    const d = await discussion(site.services);
    const pest = await acolyte();
    expect((await setMemberMuted(site.services, d.author, pest.id, true)).ok).toBe(true);
    await reply(pest, d.id, `Hey @${d.author.handle}`);
    expect(await notificationsOf(d.author)).toEqual([]);
    await setMemberMuted(site.services, d.author, pest.id, false);
    await reply(pest, d.id, "Again.");
    expect(await notificationsOf(d.author)).toHaveLength(1);
    expect(await setMemberMuted(site.services, d.author, d.author.id, true)).toMatchObject({ ok: false, status: 400 });
  });

  it("watching levels: a muted or normal discussion tells nothing, a joined topic tells of each new discussion, a muted topic silences its discussions", async () => {
    const d = await discussion(site.services);
    const replier = await acolyte();
    await setWatching(site.services, d.author, `discussion:${d.id}`, "muted");
    await reply(replier, d.id, "Quiet?");
    expect(await notificationsOf(d.author)).toEqual([]);
    await setWatching(site.services, d.author, `discussion:${d.id}`, "normal");
    await reply(replier, d.id, "Still quiet?");
    expect(await notificationsOf(d.author)).toEqual([]);
    await setWatching(site.services, d.author, `discussion:${d.id}`, "watching");
    await reply(replier, d.id, "Now?");
    expect(await notificationsOf(d.author)).toHaveLength(1);

    const t = await topic(site.services);
    const joiner = await acolyte();
    await setTopicMembership(site.services, joiner, t.id, true);
    const started = await discussion(site.services, { topic: t });
    expect((await notificationsOf(joiner)).map((n) => [n.kind, n.subject])).toEqual([["discussion", `discussion:${started.id}`]]);
    await setWatching(site.services, joiner, `topic:${t.id}`, "muted");
    await setWatching(site.services, joiner, `discussion:${started.id}`, "watching");
    await reply(replier, started.id, "In a muted topic.");
    expect(await notificationsOf(joiner)).toHaveLength(1);
    // Leaving the topic stops watching it.
    await setTopicMembership(site.services, joiner, t.id, false);
    await discussion(site.services, { topic: t });
    expect(await notificationsOf(joiner)).toHaveLength(1);
  });

  it("a kind turned off in the site is not written", async () => {
    const d = await discussion(site.services);
    await saveNotificationSettings(site.services, d.author, [{ kind: "reply", inSite: false, byMail: false }]);
    await reply(await acolyte(), d.id, "Anyone?");
    expect(await notificationsOf(d.author)).toEqual([]);
  });

  it("answers tell the asker; an acceptance and helpful votes tell the answerer, the votes on one line", async () => {
    const q = await question(site.services);
    const a = await answer(site.services, q.id);
    expect((await notificationsOf(q.asker)).map((n) => [n.kind, n.url])).toEqual([["answer", `/council/${q.id}#answer-${a.id}`]]);
    expect((await acceptAnswer(site.services, q.asker, q.id, a.id)).ok).toBe(true);
    expect((await notificationsOf(a.author)).map((n) => n.kind)).toEqual(["accepted"]);
    const voters = [await acolyte(), await acolyte(), await acolyte()];
    for (const voter of voters) expect((await setHelpful(site.services, voter, a.id, true)).ok).toBe(true);
    const helpful = (await notificationsOf(a.author)).filter((n) => n.kind === "helpful");
    expect(helpful).toHaveLength(1);
    expect(helpful[0]).toMatchObject({ actor_id: voters[2]!.id, others: 2 });
    const page = await notificationsPage(site.services.db, a.author, null);
    const line = page.items.find((i) => i.kind === "helpful")!;
    expect(notificationText({ kind: line.kind, actor: line.actor?.name ?? null, others: line.others, title: line.title })).toBe(
      `${voters[2]!.name} and 2 others marked your answer to "${line.title}" helpful`,
    );
  });

  it("likes gather on one unread line; a comment tells the creation's author", async () => {
    const author = await newMember(site.services.db);
    const made = await creation(site.services.db, { author, title: "Dawn, in ink" });
    const likers = [await acolyte(), await acolyte()];
    for (const liker of likers) expect((await setLiked(site.services, liker, made.id, true)).ok).toBe(true);
    const likes = (await notificationsOf(author)).filter((n) => n.kind === "like");
    expect(likes).toHaveLength(1);
    expect(likes[0]).toMatchObject({ others: 1, actor_id: likers[1]!.id, url: `/forge/${made.id}` });
    // Read, the next like starts a new line.
    await markAllRead(site.services, author);
    await setLiked(site.services, await acolyte(), made.id, true);
    expect((await notificationsOf(author)).filter((n) => n.kind === "like")).toHaveLength(2);
    const commenter = await acolyte();
    const commented = await commentOnCreation(site.services, commenter, made.id, { body: "Beautiful.", submissionKey: key() });
    if (!commented.ok) throw new Error("comment refused");
    expect((await notificationsOf(author))[0]).toMatchObject({ kind: "comment", url: `/forge/${made.id}#comment-${commented.value.id}` });
  });

  it("a like or helpful vote taken back stops counting: toggling never swells a line, the line names who still stands, and goes with the last", async () => {
    const author = await newMember(site.services.db);
    const made = await creation(site.services.db, { author, title: "Ridge at noon" });
    const [ada, bo] = [await acolyte(), await acolyte()];
    const likes = async () => (await notificationsOf(author)).filter((n) => n.kind === "like" && n.read_at === null);
    // One member liking, unliking and liking again is one like, not "Ada and 2 others".
    for (const liked of [true, false, true, false, true]) expect((await setLiked(site.services, ada, made.id, liked)).ok).toBe(true);
    expect(await likes()).toMatchObject([{ actor_id: ada.id, others: 0 }]);
    // The member named takes theirs back: the line names the other, alone.
    await setLiked(site.services, bo, made.id, true);
    expect(await likes()).toMatchObject([{ actor_id: bo.id, others: 1 }]);
    await setLiked(site.services, bo, made.id, false);
    expect(await likes()).toMatchObject([{ actor_id: ada.id, others: 0 }]);
    // The last like taken back takes the line, and the bell's count, away.
    await setLiked(site.services, ada, made.id, false);
    expect(await likes()).toEqual([]);
    expect(await unread(author)).toBe(0);
    // A like the author already read about leaves the new unread line alone when taken back.
    await setLiked(site.services, ada, made.id, true);
    await markAllRead(site.services, author);
    await setLiked(site.services, bo, made.id, true);
    await setLiked(site.services, ada, made.id, false);
    expect(await likes()).toMatchObject([{ actor_id: bo.id, others: 0 }]);

    // Helpful votes gather and are taken back the same way.
    const q = await question(site.services);
    const a = await answer(site.services, q.id);
    const helpful = async () => (await notificationsOf(a.author)).filter((n) => n.kind === "helpful");
    for (const on of [true, false, true]) expect((await setHelpful(site.services, ada, a.id, on)).ok).toBe(true);
    await setHelpful(site.services, bo, a.id, true);
    expect(await helpful()).toMatchObject([{ actor_id: bo.id, others: 1 }]);
    await setHelpful(site.services, ada, a.id, false);
    expect(await helpful()).toMatchObject([{ actor_id: bo.id, others: 0 }]);
    await setHelpful(site.services, bo, a.id, false);
    expect(await helpful()).toEqual([]);
  });

  it("a rank going up tells the member; going down does not", async () => {
    const climber = await newMember(site.services.db);
    await grantXp(site.services.db, climber.id, rankById("acolyte").minXp);
    expect((await notificationsOf(climber, { ranks: true })).map((n) => [n.kind, n.title, n.url])).toEqual([["rank", rankById("acolyte").label, "/ranks"]]);
    await grantXp(site.services.db, climber.id, -rankById("acolyte").minXp);
    expect(await notificationsOf(climber, { ranks: true })).toHaveLength(1);
  });

  it("an event's change, cancellation and a move up from the waitlist tell those going, not the host", async () => {
    const e = await event(site.services, { capacity: 1 });
    const going = await acolyte();
    const waiting = await acolyte();
    expect((await rsvp(site.services, going, e.id, "going")).ok).toBe(true);
    expect((await rsvp(site.services, waiting, e.id, "going")).ok).toBe(true);
    await rsvp(site.services, going, e.id, "not_going");
    expect((await notificationsOf(waiting)).map((n) => n.kind)).toEqual(["event.promoted"]);
    const startsAt = new Date(Date.now() + 72 * 3600_000);
    const edited = await editEvent(site.services, e.host, e.id, {
      title: "Morning sit, moved",
      description: "Twenty minutes of silent sitting, then tea.",
      path: "monk",
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3600_000),
      timeZone: "Europe/Berlin",
      onlineUrl: null,
      place: "Tiergarten",
      capacity: 1,
    });
    expect(edited.ok).toBe(true);
    expect((await cancelEvent(site.services, e.host, e.id)).ok).toBe(true);
    expect((await notificationsOf(waiting)).map((n) => n.kind)).toEqual(["event.cancelled", "event.changed", "event.promoted"]);
    expect(await notificationsOf(e.host)).toEqual([]);
    expect(await notificationsOf(going)).toEqual([]);
  });

  it("a hidden or deleted post takes its notifications away, a hidden discussion its replies' too; its author is told of the hide and the restore", async () => {
    const moderator = await newMember(site.services.db, { role: "moderator" });
    const d = await discussion(site.services);
    const replier = await acolyte();
    const id = await reply(replier, d.id, "Hidden soon.");
    expect(await unread(d.author)).toBe(1);
    expect((await setPostHidden(site.services, moderator, "reply", id, true)).ok).toBe(true);
    expect(await unread(d.author)).toBe(0);
    expect((await notificationsOf(replier)).map((n) => n.kind)).toEqual(["moderation.hidden"]);
    await setPostHidden(site.services, moderator, "reply", id, false);
    expect((await notificationsOf(replier)).map((n) => n.kind)).toEqual(["moderation.restored", "moderation.hidden"]);

    const second = await reply(replier, d.id, "Deleted soon.");
    expect(await unread(d.author)).toBe(1);
    expect((await deleteOwnPost(site.services, replier, "reply", second)).ok).toBe(true);
    expect(await unread(d.author)).toBe(0);

    await reply(replier, d.id, "Under a discussion about to be hidden.");
    expect(await unread(d.author)).toBe(1);
    await setPostHidden(site.services, moderator, "discussion", d.id, true);
    // The reply's line went with the discussion; what is left is the news of the hide itself.
    expect((await notificationsOf(d.author)).filter((n) => n.read_at === null).map((n) => n.kind)).toEqual(["moderation.hidden"]);
  });

  it("opening marks one read and gives its place; another member's, or one that does not exist, is not found; all can be marked read", async () => {
    const d = await discussion(site.services);
    const replier = await acolyte();
    await reply(replier, d.id, "One.");
    await reply(replier, d.id, "Two.");
    const [newest, older] = await notificationsOf(d.author);
    expect(await openNotification(site.services, replier, newest!.id)).toMatchObject({ ok: false, status: 404 });
    expect(await openNotification(site.services, d.author, 2_000_000_000)).toMatchObject({ ok: false, status: 404 });
    expect(await openNotification(site.services, d.author, newest!.id)).toEqual({ ok: true, value: newest!.url });
    expect(await unread(d.author)).toBe(1);
    const page = await notificationsPage(site.services.db, d.author, null);
    expect(page.items.filter((i) => i.kind !== "rank").map((i) => [i.id, i.read])).toEqual([
      [newest!.id, true],
      [older!.id, false],
    ]);
    await markAllRead(site.services, d.author);
    expect(await unread(d.author)).toBe(0);
  });

  it("a reader resumes at the first reply by someone else after what they saw; before any reply, on the first page (never ?after=0)", async () => {
    const d = await discussion(site.services);
    const db = site.services.db;
    await markDiscussionRead(db, d.author, { id: d.id, replies: 0 }, { lastReplyId: null, lastPage: true });
    const first = await reply(await acolyte(), d.id, "First.");
    expect((await discussionReader(db, d.author, d.id))?.resume).toBeNull();
    await markDiscussionRead(db, d.author, { id: d.id, replies: 1 }, { lastReplyId: first, lastPage: true });
    await reply(d.author, d.id, "My own: no news to me.");
    expect((await discussionReader(db, d.author, d.id))?.resume).toBeNull();
    const third = await reply(await acolyte(), d.id, "Third.");
    expect((await discussionReader(db, d.author, d.id))?.resume).toEqual({ after: first, replyId: third });
  });

  it("pages of notifications follow each other by keyset, with none lost or repeated", async () => {
    const d = await discussion(site.services);
    // Seven members, five replies each: one member's 35 would meet the write limit.
    for (let r = 0; r < 7; r++) {
      const replier = await acolyte();
      for (let i = 0; i < 5; i++) await reply(replier, d.id, `Reply ${r}.${i}.`);
    }
    // The author's own rank line (the factory's XP) is read, so the pages hold the 35 replies alone.
    await site.services.db.deleteFrom("notification").where("member_id", "=", d.author.id).where("kind", "=", "rank").execute();
    const first = await notificationsPage(site.services.db, d.author, null);
    expect(first.items).toHaveLength(30);
    expect(first.next).not.toBeNull();
    const [at, id] = first.next!.split(".");
    const second = await notificationsPage(site.services.db, d.author, { at: new Date(Number(at)).toISOString(), id: Number(id) });
    expect(second.items).toHaveLength(5);
    expect(second.next).toBeNull();
    expect(new Set([...first.items, ...second.items].map((i) => i.id)).size).toBe(35);
  });

  it("a deleted member's notifications, theirs and those they caused, leave with them", async () => {
    const d = await discussion(site.services);
    const replier = await acolyte();
    await reply(replier, d.id, "Soon gone.");
    expect(await unread(d.author)).toBe(1);
    // The account deletion's transaction step, as settings-service runs it.
    await site.services.db.transaction().execute((trx) => deleteMemberNotifications(trx, replier.id));
    expect(await unread(d.author)).toBe(0);
  });
});

// SQLite serialises writers, which would hide a race: these run where writers truly overlap.
if (ENGINE === "postgres")
  describe("notifications under load on postgres", () => {
    it("50 replies at once give a watcher exactly 50 notifications", async () => {
      const d = await discussion(site.services);
      const watcher = await acolyte();
      await setWatching(site.services, watcher, `discussion:${d.id}`, "watching");
      const repliers = await Promise.all(Array.from({ length: 50 }, () => acolyte()));
      const results = await Promise.all(repliers.map((r, i) => postReply(site.services, r, d.id, { body: `At once ${i}`, submissionKey: key() })));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(await notificationsOf(watcher)).toHaveLength(50);
      expect(await notificationsOf(d.author)).toHaveLength(50);
    });

    it("50 likes at once give the author one line with 49 others", async () => {
      const author = await newMember(site.services.db);
      const made = await creation(site.services.db, { author });
      const likers = await Promise.all(Array.from({ length: 50 }, () => acolyte()));
      const results = await Promise.all(likers.map((l) => setLiked(site.services, l, made.id, true)));
      expect(results.every((r) => r.ok)).toBe(true);
      const lines = (await notificationsOf(author)).filter((n) => n.kind === "like");
      expect(lines).toHaveLength(1);
      expect(lines[0]!.others).toBe(49);
      // Taken back at once, all but one: the line counts that one alone and names them.
      const [stays, ...leave] = likers;
      const undone = await Promise.all(leave.map((l) => setLiked(site.services, l, made.id, false)));
      expect(undone.every((r) => r.ok)).toBe(true);
      expect((await notificationsOf(author)).filter((n) => n.kind === "like")).toMatchObject([{ actor_id: stays!.id, others: 0 }]);
      expect((await setLiked(site.services, stays!, made.id, false)).ok).toBe(true);
      expect((await notificationsOf(author)).filter((n) => n.kind === "like")).toEqual([]);
    });
  });
