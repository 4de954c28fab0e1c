import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "~/.server/context";
import { postReply } from "~/.server/domain/forum/forum-service";
import { rsvp } from "~/.server/domain/events/event-service";
import { markAllRead, notificationSettings, saveNotificationSettings } from "~/.server/domain/notifications/notification-service";
import { DIGEST_AWAY_MS, INVALID_STOP_LINK_MESSAGE, mailStopToken, sendDueDigests, stopMail } from "~/.server/domain/notifications/digest";
import { rankById } from "~/lib/ranks";
import { discussion, event, member as newMember } from "../factories";
import { readable, startSite } from "./site-server";
import { mailText, startSmtpServer } from "./smtp";
import { createTestSite, deliverQueuedMail, ENGINE, type TestSite } from "./test-services";

/**
 * Mail when away (issue 28 item 3, ADR 0058): one digest to a member who left a notification unread
 * for an hour, never more than one an hour, never of what was read, of kinds whose mail is off or of
 * events (mailed by their own service); claimed once across instances; its per-kind stop links work
 * from the mail (GET shows, POST changes, a bad token is a 400), and it goes out over real SMTP.
 */

let site: TestSite;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let http: Awaited<ReturnType<typeof startSite>>;
const db = () => site.services.db;
const links = () => ({ baseUrl: site.services.env.BASE_URL, secret: site.services.env.AUTH_SECRET });
const HOUR = DIGEST_AWAY_MS;
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

beforeAll(async () => {
  smtp = await startSmtpServer();
  site = await createTestSite({ smtpUrl: smtp.url });
  http = await startSite(site);
}, 60_000);

afterAll(async () => {
  await http?.close();
  await site?.destroy();
  await smtp?.close();
});

/** A member who has not reached a rank of their own (no rank line of theirs in any digest). */
const plainMember = () => newMember(db());
const acolyte = () => newMember(db(), { xp: rankById("acolyte").minXp });

async function reply(viewer: Viewer, discussionId: number, body: string, at: Date) {
  const posted = await postReply(site.services, viewer, discussionId, { body, submissionKey: randomUUID() }, at);
  if (!posted.ok) throw new Error(JSON.stringify(posted));
  return posted.value.id;
}

/** A discussion `author` started, with one reply from someone else at `at`: one "reply" line for the author. */
async function repliedTo(author: Viewer, at: Date, body = "I sat for ten minutes.") {
  const d = await discussion(site.services, { author });
  const replier = await acolyte();
  const id = await reply(replier, d.id, body, at);
  return { d, replier, replyId: id };
}

async function digestsTo(viewer: Viewer) {
  const rows = await db()
    .selectFrom("mail_outbox")
    .select(["subject", "text_body", "html_body", "headers", "dedupe_key"])
    .where("to_address", "=", viewer.email)
    .where("kind", "=", "notification-digest")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ ...r, headers: JSON.parse(r.headers) as Record<string, string> }));
}

const stopLinkIn = (text: string, label: string) => {
  const match = new RegExp(`${label}: (http://localhost:3000/notifications/unsubscribe\\?token=([A-Za-z0-9_.-]+))`).exec(text);
  if (!match) throw new Error(`no "${label}" link in:\n${text}`);
  return { url: match[1]!, token: match[2]! };
};

describe(`the notification digest on ${ENGINE}`, () => {
  it("goes to a member who stayed away an hour: each line with its link, the list, a stop link per kind and List-Unsubscribe", async () => {
    const away = await plainMember();
    const t0 = new Date();
    const { d, replier, replyId } = await repliedTo(away, t0);
    // Not yet an hour unread.
    await sendDueDigests(db(), later(t0, HOUR - 60_000), links());
    expect(await digestsTo(away)).toEqual([]);

    expect(await sendDueDigests(db(), later(t0, HOUR + 60_000), links())).toBeGreaterThanOrEqual(1);
    const [mail, ...more] = await digestsTo(away);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe("1 new notification on Inner Peace. Outer Strength.");
    expect(mail!.text_body).toContain(`Hello ${away.name},`);
    expect(mail!.text_body).toContain(`- ${replier.name} replied in "${d.title}"\n  http://localhost:3000/${d.section}/${d.topicId}/${d.id}-${d.slug}`);
    expect(mail!.text_body).toContain(`#reply-${replyId}`);
    expect(mail!.text_body).toContain("Open your notifications: http://localhost:3000/notifications");
    stopLinkIn(mail!.text_body, "Stop mail about replies in discussions you watch");
    expect(mail!.text_body).not.toContain("Stop mail about mentions");
    expect(mail!.html_body).toContain(`${replier.name} replied in &quot;${d.title}&quot;</a>`);
    const all = stopLinkIn(mail!.text_body, "Stop all notification mail");
    expect(mail!.headers).toEqual({ "List-Unsubscribe": `<${all.url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
  });

  it("is never sent twice in an hour, and the next one lists only what is new", async () => {
    const away = await plainMember();
    const t0 = new Date();
    const { d, replier } = await repliedTo(away, t0, "First.");
    await sendDueDigests(db(), later(t0, HOUR + 60_000), links());
    expect(await digestsTo(away)).toHaveLength(1);
    await reply(replier, d.id, "Second.", later(t0, 2 * 60_000));
    // Both lines are an hour old by now, but the last digest is younger than an hour.
    await sendDueDigests(db(), later(t0, HOUR + 30 * 60_000), links());
    await sendDueDigests(db(), later(t0, 2 * HOUR), links());
    expect(await digestsTo(away)).toHaveLength(1);
    await sendDueDigests(db(), later(t0, 2 * HOUR + 2 * 60_000), links());
    const [, second] = await digestsTo(away);
    expect(second!.subject).toBe("1 new notification on Inner Peace. Outer Strength.");
    await sendDueDigests(db(), later(t0, 4 * HOUR), links());
    expect(await digestsTo(away)).toHaveLength(2);
  });

  it("is not sent to a member who read their notifications", async () => {
    const reader = await plainMember();
    const t0 = new Date();
    await repliedTo(reader, t0);
    await markAllRead(site.services, reader, later(t0, 10 * 60_000));
    await sendDueDigests(db(), later(t0, HOUR + 60_000), links());
    expect(await digestsTo(reader)).toEqual([]);
  });

  it("is not sent for a kind whose mail is off, and lists only the kinds mailed", async () => {
    const quiet = await plainMember();
    await saveNotificationSettings(site.services, quiet, [{ kind: "reply", inSite: true, byMail: false }]);
    const t0 = new Date();
    await repliedTo(quiet, t0);
    await sendDueDigests(db(), later(t0, HOUR + 60_000), links());
    expect(await digestsTo(quiet)).toEqual([]);

    // A mention (mail on) and a reply (mail off): the digest has the mention alone.
    const mixed = await plainMember();
    await saveNotificationSettings(site.services, mixed, [{ kind: "reply", inSite: true, byMail: false }]);
    const { d, replier } = await repliedTo(mixed, t0);
    const other = await discussion(site.services);
    await reply(replier, other.id, `Have a look, @${mixed.handle}.`, t0);
    await sendDueDigests(db(), later(t0, HOUR + 60_000), links());
    const [mail] = await digestsTo(mixed);
    expect(mail!.subject).toBe("1 new notification on Inner Peace. Outer Strength.");
    expect(mail!.text_body).toContain(`${replier.name} mentioned you in "${other.title}"`);
    expect(mail!.text_body).not.toContain(`replied in "${d.title}"`);
    stopLinkIn(mail!.text_body, "Stop mail about mentions of you");
    expect(mail!.text_body).not.toContain("Stop mail about replies");
  });

  it("leaves out events' lines, which the events service mails itself", async () => {
    const e = await event(site.services, { capacity: 1 });
    const going = await acolyte();
    const waiting = await acolyte();
    // The acolytes' own rank lines are read: only the event's line is left.
    await markAllRead(site.services, waiting);
    const t0 = new Date();
    expect((await rsvp(site.services, going, e.id, "going", t0)).ok).toBe(true);
    expect((await rsvp(site.services, waiting, e.id, "going", t0)).ok).toBe(true);
    await rsvp(site.services, going, e.id, "not_going", t0);
    const lines = await db().selectFrom("notification").select("kind").where("member_id", "=", waiting.id).where("read_at", "is", null).execute();
    expect(lines.map((l) => l.kind)).toEqual(["event.promoted"]);
    await sendDueDigests(db(), later(t0, HOUR + 60_000), links());
    expect(await digestsTo(waiting)).toEqual([]);
  });

  it("two instances running it at once, on either side of an hour, queue one digest", async () => {
    const away = await plainMember();
    const t0 = new Date();
    await repliedTo(away, t0);
    // On SQLite one process holds one connection (a second would wait for the first synchronously,
    // holding up the first): two runs at once on it, as two overlapping ticks would be.
    const second = ENGINE === "postgres" ? await site.another() : site;
    try {
      // Different hours, so the outbox's dedupe key cannot be what keeps it single: the claim is.
      const hour = Math.ceil(later(t0, HOUR + 60_000).getTime() / HOUR) * HOUR;
      await Promise.all([sendDueDigests(db(), new Date(hour - 1), links()), sendDueDigests(second.services.db, new Date(hour + 1), links())]);
    } finally {
      if (second !== site) await second.close();
    }
    expect(await digestsTo(away)).toHaveLength(1);
    const mailed = await db().selectFrom("notification").select("mailed_at").where("member_id", "=", away.id).execute();
    expect(mailed.every((n) => n.mailed_at !== null)).toBe(true);
  });

  it("a stop link turns that kind's mail off and keeps its in-site choice; a forged one changes nothing", async () => {
    const away = await plainMember();
    await saveNotificationSettings(site.services, away, [{ kind: "mention", inSite: false, byMail: true }]);
    const t0 = new Date();
    await repliedTo(away, t0);
    await sendDueDigests(db(), later(t0, HOUR + 60_000), links());
    const [mail] = await digestsTo(away);
    const replies = stopLinkIn(mail!.text_body, "Stop mail about replies in discussions you watch");
    expect(await stopMail(site.services, replies.token)).toBe(true);
    const settings = new Map((await notificationSettings(db(), away.id)).map((s) => [s.kind, s]));
    expect(settings.get("reply")).toEqual({ kind: "reply", inSite: true, byMail: false });
    expect(settings.get("mention")).toEqual({ kind: "mention", inSite: false, byMail: true });

    // Every kind at once (the List-Unsubscribe link): the mention keeps its in-site "off".
    const all = stopLinkIn(mail!.text_body, "Stop all notification mail");
    expect(await stopMail(site.services, all.token)).toBe(true);
    for (const s of await notificationSettings(db(), away.id)) expect(s).toEqual({ kind: s.kind, inSite: s.kind !== "mention", byMail: false });

    // Another member's id under this member's signature, another kind, another secret: refused.
    const other = await plainMember();
    const [, , signature] = replies.token.split(".");
    const forged = [
      `${Buffer.from(other.id).toString("base64url")}.reply.${signature}`,
      replies.token.replace(".reply.", ".mention."),
      mailStopToken("another-secret-that-is-long-enough-0123456789", other.id, "reply"),
      "",
      "not.a.token",
    ];
    for (const token of forged) expect(await stopMail(site.services, token)).toBe(false);
    expect((await notificationSettings(db(), other.id)).every((s) => s.byMail)).toBe(true);
  });

  it("over HTTP: the link shows a confirm page and changes nothing, its button turns the mail off, a bad token is a 400", async () => {
    const away = await plainMember();
    const token = mailStopToken(site.services.env.AUTH_SECRET, away.id, "reply");
    const path = `/notifications/unsubscribe?token=${token}`;
    const shown = await http.get(path);
    expect(shown.status).toBe(200);
    const page = (await readable(shown)).replaceAll("&#x27;", "'");
    expect(page).toContain("Stop mail about replies in discussions you watch?");
    expect(page).toContain(away.email);
    expect(page).toMatch(/<button[^>]*type="submit"[^>]*>Stop mail<\/button>/);
    expect((await notificationSettings(db(), away.id)).find((s) => s.kind === "reply")!.byMail).toBe(true);

    const posted = await http.post(path, { token });
    expect(posted.status).toBe(200);
    expect(await readable(posted)).toContain("You will get no more mail about replies in discussions you watch.");
    expect((await notificationSettings(db(), away.id)).find((s) => s.kind === "reply")).toEqual({ kind: "reply", inSite: true, byMail: false });

    for (const bad of ["", "nonsense", token.slice(0, -2) + "AA", token.replace(".reply.", ".nothing.")]) {
      const res = await http.get(`/notifications/unsubscribe?token=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(await readable(res)).toContain(INVALID_STOP_LINK_MESSAGE);
      expect((await http.post(`/notifications/unsubscribe?token=${encodeURIComponent(bad)}`, { token: bad })).status, bad).toBe(400);
    }
  });

  it("over HTTP: a mail provider's one-click post (RFC 8058) from its own origin turns every kind's mail off", async () => {
    const away = await plainMember();
    const token = mailStopToken(site.services.env.AUTH_SECRET, away.id, "all");
    const res = await http.post(`/notifications/unsubscribe?token=${token}`, { "List-Unsubscribe": "One-Click" }, { origin: "https://mail.example.net" });
    expect(res.status).toBe(200);
    expect((await notificationSettings(db(), away.id)).every((s) => s.inSite && !s.byMail)).toBe(true);
  });

  it("goes out over SMTP with both parts and the List-Unsubscribe headers", async () => {
    const away = await plainMember();
    const t0 = new Date();
    const { d, replier } = await repliedTo(away, t0);
    const at = later(t0, HOUR + 60_000);
    await sendDueDigests(db(), at, links());
    await deliverQueuedMail(site.services, at);
    const received = smtp.received.filter((m) => m.to.includes(away.email));
    expect(received).toHaveLength(1);
    const raw = received[0]!.raw;
    const headers = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
    expect(headers).toMatch(/^Subject: 1 new notification on Inner Peace\. Outer Strength\.$/m);
    expect(headers).toMatch(/^List-Unsubscribe: <http:\/\/localhost:3000\/notifications\/unsubscribe\?token=[A-Za-z0-9_.-]+>$/m);
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(raw).toMatch(/^Content-Type: multipart\/alternative/m);
    expect(raw).toMatch(/^Content-Type: text\/plain/m);
    expect(raw).toMatch(/^Content-Type: text\/html/m);
    const body = mailText(raw);
    expect(body).toContain(`${replier.name} replied in "${d.title}"`);
    expect(body).toContain('<a href="http://localhost:3000/notifications"');
  });
});
