import { describe, expect, it } from "vitest";
import { registerMember } from "~/.server/domain/accounts/account-service";
import type { Viewer } from "~/.server/context";
import { insertNotifications } from "~/.server/domain/notifications/notification-repository";
import { joinSchema } from "~/schemas/account";
import { discussion, question, topic } from "../factories";
import { readable, siteOverHttp } from "./site-server";
import { cookieHeader, ENGINE } from "./test-services";

/**
 * Issue 28's screens over HTTP: the bell in every member's page, /notifications (opening a line,
 * marking all read, pages), the notification settings and muted members on /settings, the
 * watching control of a discussion, a question and a topic, and the mute button on a profile.
 * Notifications are made by the real site: a member replies over HTTP.
 */

const web = siteOverHttp({ demo: false });
const db = () => web.site.services.db;

let joins = 0;
const PASSWORD = "Secret123";

interface Member {
  viewer: Viewer;
  cookie: string;
}

/**
 * A member who joined through the account service (a real session). Initiates: a few posts each
 * stay below the next rank, whose line would be one more notification in every count here.
 */
async function joined(name: string): Promise<Member> {
  joins += 1;
  const values = joinSchema.parse({
    fullName: name,
    email: `notified-${joins}-${Date.now()}@example.org`,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    termsAccepted: true,
  });
  const result = await registerMember(web.site.services, values, {
    headers: new Headers({ "user-agent": "vitest" }),
    ip: `10.78.${Math.floor(joins / 250)}.${joins % 250}`,
  });
  if (!result.ok) throw new Error(`join failed: ${JSON.stringify(result.errors)}`);
  return { viewer: result.viewer, cookie: cookieHeader(result.headers) };
}

const get = (path: string, who?: Member) => web.http.get(path, who ? { cookie: who.cookie } : {});
const post = (path: string, form: Record<string, string>, who?: Member) => web.http.post(path, form, who ? { cookie: who.cookie } : {});
const page = async (path: string, who?: Member) => {
  const res = await get(path, who);
  expect(res.status, path).toBe(200);
  // The lines' quotes as a reader sees them, not as the markup escapes them.
  return (await readable(res)).replaceAll("&quot;", '"');
};

/** A discussion A started, at its own address. */
async function discussionBy(author: Member, title: string) {
  const d = await discussion(web.site.services, { author: author.viewer, title });
  return { ...d, path: `/${d.section}/${d.topicId}/${d.id}-${d.slug}` };
}

/** A reply posted over HTTP, as a browser posts it (with the form's submission key). */
async function replyOverHttp(path: string, who: Member, body: string) {
  // The last page: the first would send a returning reader on to the first reply they have not read.
  const html = await page(`${path}?page=last`, who);
  const submissionKey = /name="submissionKey" value="([^"]+)"/.exec(html)![1];
  const res = await post(path, { intent: "reply", body, submissionKey }, who);
  expect(res.status, await res.clone().text()).toBe(302);
  return Number(/#reply-(\d+)$/.exec(res.headers.get("location")!)![1]);
}

/** The member's notifications as stored, newest first. */
const stored = (who: Member) =>
  db().selectFrom("notification").select(["id", "kind", "url", "read_at"]).where("member_id", "=", who.viewer.id).orderBy("id", "desc").execute();

/** The bell as the page draws it: the link's name and the badge's text and whether it is hidden. */
function bell(html: string) {
  // The bell in the top bar and its twin in the mobile menu say the same.
  const found = [...html.matchAll(/(<a[^>]*data-bell=""[^>]*>)[\s\S]*?(<span[^>]*data-bell-badge=""[^>]*>)([^<]*)<\/span>/g)].map((m) => ({
    name: /aria-label="([^"]*)"/.exec(m[1]!)![1],
    count: m[3],
    hidden: / hidden=""/.test(m[2]!),
  }));
  if (found.length === 0) return null;
  expect(found).toHaveLength(2);
  expect(found[1]).toEqual(found[0]);
  return found[0];
}

/** Which of a <select>'s options the page shows chosen. */
const selected = (html: string) => /<option value="(\w+)" selected="">/.exec(html)?.[1];

/** Whether a checkbox of this name is drawn checked. */
function checkbox(html: string, name: string) {
  const input = new RegExp(`<input[^>]*name="${name.replaceAll(".", "\\.")}"[^>]*>`).exec(html)?.[0];
  if (!input) throw new Error(`no checkbox ${name}`);
  return / checked=""/.test(input);
}

const handleOf = async (who: Member) => (await db().selectFrom("member").select("handle").where("id", "=", who.viewer.id).executeTakeFirstOrThrow()).handle;

describe(`notification screens over HTTP on ${ENGINE}`, () => {
  it("sends a visitor to sign in from /notifications and its posts, and shows a visitor no bell", async () => {
    const list = await get("/notifications");
    expect(list.status).toBe(302);
    expect(list.headers.get("location")).toBe("/signin?redirectTo=%2Fnotifications");
    const opened = await post("/notifications", { intent: "open", id: "1" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toContain("/signin?redirectTo=");
    expect(bell(await page("/"))).toBeNull();
  });

  it("rings the bell of the starter and of the member mentioned, lists their lines, and opening one goes to the reply and reads it", async () => {
    const ada = await joined("Ada Starter");
    const bo = await joined("Bo Replier");
    const cy = await joined("Cy Mentioned");
    expect(bell(await page("/", ada))).toEqual({ name: "Notifications", count: "0", hidden: true });
    expect(await page("/notifications", ada)).toContain("No notifications yet.");

    const d = await discussionBy(ada, "Counting breaths on the night train");
    const replyId = await replyOverHttp(d.path, bo, `I count to ten, @${await handleOf(cy)} taught me.`);

    // Ada's kept page of "/" is rendered again: the count is part of her session's fingerprint.
    expect(bell(await page("/", ada))).toEqual({ name: "Notifications (1 unread)", count: "1", hidden: false });
    expect(bell(await page("/", cy))).toEqual({ name: "Notifications (1 unread)", count: "1", hidden: false });

    const adaList = await page("/notifications", ada);
    expect(adaList).toContain('Bo Replier replied in "Counting breaths on the night train"');
    expect(adaList).toContain(">New<");
    expect(adaList).toContain("Mark all as read");
    expect(await page("/notifications", cy)).toContain('Bo Replier mentioned you in "Counting breaths on the night train"');

    // Reading the list changes nothing; opening the line does, and goes to the reply itself.
    expect((await stored(ada))[0]!.read_at).toBeNull();
    const [line] = await stored(ada);
    const opened = await post("/notifications", { intent: "open", id: String(line!.id) }, ada);
    expect(opened.status).toBe(303);
    // The site's first reply has no id before it, so it is linked without ?after=0 (a 400).
    const resume = replyId > 1 ? `?after=${replyId - 1}` : "";
    expect(opened.headers.get("location")).toBe(`${d.path}${resume}#reply-${replyId}`);
    expect((await stored(ada))[0]!.read_at).not.toBeNull();
    expect(bell(await page("/", ada))).toEqual({ name: "Notifications", count: "0", hidden: true });
    const after = await page("/notifications", ada);
    expect(after).not.toContain(">New<");
    expect(after).not.toContain("Mark all as read");

    // A client-side submission to the .data address is decided the same way.
    const [cyLine] = await stored(cy);
    const fromScript = await post("/notifications.data", { intent: "open", id: String(cyLine!.id) }, cy);
    const goTo = fromScript.headers.get("location") ?? fromScript.headers.get("x-remix-redirect") ?? (await fromScript.text());
    expect(goTo).toContain(`#reply-${replyId}`);
    expect((await stored(cy))[0]!.read_at).not.toBeNull();
  });

  it("refuses another member's notification with 404 and a malformed id or intent with 400, changing nothing", async () => {
    const ada = await joined("Ada Owner");
    const bo = await joined("Bo Other");
    const d = await discussionBy(ada, "Whose notification is this one");
    await replyOverHttp(d.path, bo, "A reply that tells Ada.");
    const [line] = await stored(ada);
    const theirs = await post("/notifications", { intent: "open", id: String(line!.id) }, bo);
    expect(theirs.status).toBe(404);
    for (const id of ["", "abc", "0", "-1", "1e3", "2147483648", "99999999999"]) {
      const res = await post("/notifications", { intent: "open", id }, ada);
      expect(res.status, id).toBe(400);
    }
    expect((await post("/notifications", { intent: "open", id: "2147483647" }, ada)).status).toBe(404);
    expect((await post("/notifications", { intent: "delete-everything" }, ada)).status).toBe(400);
    expect((await stored(ada))[0]!.read_at).toBeNull();
    expect((await get("/notifications?after=yesterday", ada)).status).toBe(400);
  });

  it("marks all as read with one button, and pages older lines with a link", async () => {
    const ada = await joined("Ada Busy");
    // Two repliers: one member's writes are limited to 30 in 10 minutes.
    const repliers = [await joined("Bo Chatty"), await joined("Cy Chatty")];
    const d = await discussionBy(ada, "A discussion with many replies");
    for (let i = 0; i < 31; i++) await replyOverHttp(d.path, repliers[i % 2]!, `Reply number ${i + 1}.`);
    expect(bell(await page("/", ada))).toEqual({ name: "Notifications (31 unread)", count: "31", hidden: false });
    const first = await page("/notifications", ada);
    expect(first.match(/>New</g)).toHaveLength(30);
    const older = /href="(\/notifications\?after=[0-9.]+)"[^>]*>Older notifications</.exec(first)?.[1];
    expect(older).toBeDefined();
    const second = await page(older!, ada);
    expect(second.match(/>New</g)).toHaveLength(1);
    expect(second).toContain("Newest notifications");
    expect(second).not.toContain("Older notifications");

    const marked = await post("/notifications", { intent: "mark-all-read" }, ada);
    expect(marked.status).toBe(303);
    expect(marked.headers.get("location")).toBe("/notifications");
    expect((await stored(ada)).every((n) => n.read_at !== null)).toBe(true);
    expect(await page("/notifications", ada)).not.toContain(">New<");
    expect(bell(await page("/", ada))?.hidden).toBe(true);
  });

  it("says 99+ on the bell past 99 unread, in the badge and in the link's name", async () => {
    const ada = await joined("Ada Popular");
    const at = new Date().toISOString();
    const line = (i: number) => ({
      member_id: ada.viewer.id,
      kind: "rank",
      actor_id: null,
      subject: `rank:${i}`,
      parent: null,
      title: "Acolyte",
      url: "/ranks",
      group_key: null,
      at,
    });
    await insertNotifications(
      db(),
      Array.from({ length: 99 }, (_, i) => line(i)),
    );
    expect(bell(await page("/", ada))).toEqual({ name: "Notifications (99 unread)", count: "99", hidden: false });
    await insertNotifications(db(), [line(99)]);
    expect(bell(await page("/", ada))).toEqual({ name: "Notifications (99+ unread)", count: "99+", hidden: false });
  });

  it("saves each kind's two checkboxes on /settings and shows them back; a kind turned off in the site tells nothing", async () => {
    const ada = await joined("Ada Chooser");
    const bo = await joined("Bo Writer");
    const before = await page("/settings", ada);
    expect(before).toContain("Save notification settings");
    expect(checkbox(before, "notify.reply.site")).toBe(true);
    expect(checkbox(before, "notify.mention.mail")).toBe(true);

    // Everything on but replies in the site and mentions by mail (absent boxes are unchecked).
    const form: Record<string, string> = {};
    for (const kind of ["reply", "discussion", "answer", "accepted", "helpful", "like", "comment", "mention", "rank", "check_in", "event", "moderation"]) {
      if (kind !== "reply") form[`notify.${kind}.site`] = "on";
      if (kind !== "mention") form[`notify.${kind}.mail`] = "on";
    }
    const saved = await post("/settings?intent=notifications", form, ada);
    expect(saved.status).toBe(200);
    expect(await readable(saved)).toContain("Your notification settings are saved.");
    const after = await page("/settings", ada);
    expect(checkbox(after, "notify.reply.site")).toBe(false);
    expect(checkbox(after, "notify.reply.mail")).toBe(true);
    expect(checkbox(after, "notify.mention.site")).toBe(true);
    expect(checkbox(after, "notify.mention.mail")).toBe(false);

    const d = await discussionBy(ada, "Replies that Ada chose not to hear of");
    await replyOverHttp(d.path, bo, "Ada turned these off.");
    expect(await stored(ada)).toHaveLength(0);
  });

  it("saves a discussion's, a question's and a topic's watching level from its page, and shows it back", async () => {
    const ada = await joined("Ada Watcher");
    const bo = await joined("Bo Poster");
    const d = await discussionBy(bo, "A discussion Ada will watch");
    const q = await question(web.site.services, { asker: bo.viewer, title: "A question Ada will watch closely" });
    const t = await topic(web.site.services);
    const places = [
      { path: d.path, what: "discussion" },
      { path: `/council/${q.id}`, what: "question" },
      { path: `/${t.section}/${t.id}`, what: "topic" },
    ];
    for (const { path, what } of places) {
      const shown = await page(path, ada);
      expect(shown, path).toContain(`Notifications for this ${what}`);
      expect(selected(shown), path).toBe("normal");
      expect(await page(path), path).not.toContain("Update notifications");

      const saved = await post(path, { intent: "watch", level: "watching" }, ada);
      expect(saved.status, path).toBe(302);
      expect(saved.headers.get("location"), path).toBe(`${path}#watch`);
      expect(selected(await page(path, ada)), path).toBe("watching");
      expect((await post(path, { intent: "watch", level: "loud" }, ada)).status, path).toBe(400);
      expect(selected(await page(path, ada)), path).toBe("watching");
    }
    // Watching the discussion: the next reply tells Ada.
    await replyOverHttp(d.path, bo, "Ada watches this now.");
    expect((await stored(ada)).map((n) => n.kind)).toEqual(["reply"]);
    // Muted: nothing from it.
    await post(d.path, { intent: "watch", level: "muted" }, ada);
    await replyOverHttp(d.path, bo, "Ada muted this.");
    expect(await stored(ada)).toHaveLength(1);
    expect((await post("/council/2147483647", { intent: "watch", level: "watching" }, ada)).status).toBe(404);
  });

  it("mutes and unmutes a member from their profile, lists them on /settings, and a muted member's reply tells nothing", async () => {
    const ada = await joined("Ada Muter");
    const bo = await joined("Bo Noisy");
    const profile = `/members/${await handleOf(bo)}`;
    expect(await page(profile)).not.toContain("Mute Bo Noisy");
    expect(await page(`/members/${await handleOf(ada)}`, ada)).not.toContain("Mute Ada Muter");
    expect(await page(profile, ada)).toContain("Mute Bo Noisy");
    expect(await page("/settings", ada)).toContain("You have muted nobody.");

    const muted = await post(profile, { intent: "mute" }, ada);
    expect(muted.status).toBe(302);
    expect(muted.headers.get("location")).toBe(`${profile}#mute`);
    const shown = await page(profile, ada);
    expect(shown).toContain("Unmute Bo Noisy");
    expect(shown).toContain("You are not notified of anything they do.");
    const settings = await page("/settings", ada);
    expect(settings).toContain("Bo Noisy");
    expect(settings).not.toContain("You have muted nobody.");

    const d = await discussionBy(ada, "Ada does not hear of Bo here");
    await replyOverHttp(d.path, bo, "Ada muted me.");
    expect(await stored(ada)).toHaveLength(0);

    const unmuted = await post("/settings?intent=unmute", { memberId: bo.viewer.id }, ada);
    expect(unmuted.status).toBe(200);
    expect(await readable(unmuted)).toContain("You have muted nobody.");
    await replyOverHttp(d.path, bo, "Ada hears me again.");
    expect(await stored(ada)).toHaveLength(1);

    expect((await post(profile, { intent: "shout" }, ada)).status).toBe(400);
    expect((await post("/members/nobody-has-this-handle", { intent: "mute" }, ada)).status).toBe(404);
    expect((await post(`/members/${await handleOf(ada)}`, { intent: "mute" }, ada)).status).toBe(400);
    expect((await post(profile, { intent: "mute" })).status).toBe(302);
  });
});
