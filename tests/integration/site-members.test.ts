import { describe, expect, it } from "vitest";
import { registerMember } from "~/.server/domain/accounts/account-service";
import { confirmEmailChange, EMAIL_CHANGE_LINK_MS, requestEmailChange } from "~/.server/domain/accounts/settings-service";
import { subscribe } from "~/.server/domain/newsletter/newsletter-service";
import type { Viewer } from "~/.server/context";
import { tag } from "~/.server/cache/page-tags";
import { joinSchema } from "~/schemas/account";
import { postReply } from "~/.server/domain/forum/forum-service";
import { commentOnCreation } from "~/.server/domain/forge/forge-engagement";
import { answer, attempt, challenge, creation, discussion, grantXp, member, question } from "../factories";
import { png } from "../factories/media";
import { readable, siteOverHttp } from "./site-server";
import { emailChangeToken } from "./site-join";
import { cookieHeader, ENGINE } from "./test-services";

const web = siteOverHttp({ demo: false });
const db = () => web.site.services.db;

let joins = 0;
const PASSWORD = "Secret123";

/** A member who joined through the account service (a real password and session), and their cookie. */
async function joined(overrides: Record<string, unknown> = {}) {
  joins += 1;
  const values = joinSchema.parse({
    fullName: `Member Test ${joins}`,
    email: `member-test-${joins}-${Date.now()}@example.org`,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    bio: "Breathing, then lifting.",
    interests: { meditation: true, fitness: true, philosophy: false, creativity: false },
    termsAccepted: true,
    ...overrides,
  });
  const result = await registerMember(web.site.services, values, {
    headers: new Headers({ "user-agent": "vitest" }),
    ip: `10.77.${Math.floor(joins / 250)}.${joins % 250}`,
  });
  if (!result.ok) throw new Error(`join failed: ${JSON.stringify(result.errors)}`);
  return { viewer: result.viewer, cookie: cookieHeader(result.headers), email: values.email };
}

/** The member's row as the member edits it; `seen_rank` is the site's own bookkeeping (any page view may set it). */
async function memberRow(id: string) {
  const { seen_rank: _seen, ...row } = await db().selectFrom("member").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  return row;
}

const settingsPost = (intent: string, form: Record<string, string>, cookie: string) => web.http.post(`/settings?intent=${intent}`, form, { cookie });

async function signIn(email: string, password: string) {
  return web.http.post("/signin", { email, password, redirectTo: "/dashboard" });
}

describe(`member profiles on ${ENGINE}`, () => {
  it("shows name, rank, bio, interests, joined date and contributions, each linked", async () => {
    const { viewer } = await joined();
    const d = await discussion(web.site.services, { author: viewer, title: "Sitting with the morning cold" });
    const q = await question(web.site.services, { asker: viewer, title: "How do I keep a streak alive?" });
    const other = await question(web.site.services, { title: "What does courage cost?" });
    const a = await answer(web.site.services, other.id, { author: viewer });
    const c = await creation(db(), { author: viewer, title: "A poem about iron" });
    const res = await web.http.get(`/members/${viewer.handle}`);
    expect(res.status).toBe(200);
    const html = await readable(res);
    expect(html).toContain(`<h1 id="profile-name" class="font-serif text-4xl font-bold">${viewer.name}</h1>`);
    expect(html).toContain("Initiate");
    expect(html).toContain("Breathing, then lifting.");
    expect(html).toContain("Meditation &amp; Inner Peace");
    expect(html).toContain("Fitness &amp; Strength");
    expect(html).not.toContain("Philosophy &amp; Wisdom");
    expect(html).toContain("Joined");
    expect(html).toContain(`href="/${d.section}/${d.topicId}/${d.id}-${d.slug}"`);
    expect(html).toContain(`href="/council/${q.id}"`);
    expect(html).toContain(`href="/council/${other.id}#answer-${a.id}"`);
    expect(html).toContain("What does courage cost?");
    expect(html).toContain(`href="/forge/${c.id}"`);
    expect(html).toContain("A poem about iron");
    // The first page of the file compiles the app's modules: slow on a busy machine.
  }, 90_000);

  it("shows the virtues trained by completed challenges with their levels, and the rank they allow", async () => {
    const { viewer } = await joined();
    await grantXp(db(), viewer.id, 3000);
    const before = await readable(await web.http.get(`/members/${viewer.handle}`));
    expect(before).toContain("Warlord");
    expect(before).toContain("No virtues trained yet.");
    const days = { startsOn: "2026-01-01", endsOn: "2026-01-07", days: ["2026-01-01"], status: "completed" as const };
    for (let i = 0; i < 3; i++) {
      const c = await challenge(db(), { virtues: ["discipline", "wisdom", "compassion"] });
      await attempt(db(), viewer.id, c.id, days);
      const d = await challenge(db(), { virtues: ["courage", "honor", "resilience"], path: "warrior" });
      await attempt(db(), viewer.id, d.id, days);
    }
    // The attempts were written as rows, behind the app's back: like any writer outside a request,
    // the test tells the page cache what it changed (the profile was kept from the first visit).
    web.http.front.pageCache?.bump([tag.profile(viewer.id)]);
    const html = await readable(await web.http.get(`/members/${viewer.handle}`));
    expect(html).toContain("Master");
    expect(html).not.toContain("No virtues trained yet.");
    for (const label of ["Discipline", "Wisdom", "Compassion", "Courage", "Honor", "Resilience"]) {
      expect(html).toMatch(new RegExp(`${label}<span class="font-normal">· Level 2</span>`));
    }
  });

  it("answers an unknown handle, odd characters and a deleted account's handle with 404, never 500", async () => {
    for (const path of [
      "/members/nobody-here",
      "/members/%3Cscript%3E",
      "/members/..%2F..%2Fetc",
      "/members/UPPER",
      `/members/${"a".repeat(500)}`,
      "/members/%E2%80%AE",
      "/members/deleted-abc",
    ]) {
      const res = await web.http.get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain("Oops! Page not found");
    }
  });

  it("lists replies and comments too, each kind on a tab of its own in keyset pages, and 404s a tab that is none", async () => {
    const { viewer } = await joined();
    const d = await discussion(web.site.services, { title: "Cold plunges, a log" });
    const replies: number[] = [];
    for (let i = 0; i < 23; i++) {
      const posted = await postReply(web.site.services, viewer, d.id, { body: `Day ${i}: in and out.`, submissionKey: crypto.randomUUID() });
      if (!posted.ok) throw new Error("reply");
      replies.push(posted.value.id);
    }
    const c = await creation(db(), { title: "A sketch of the lake" });
    const commented = await commentOnCreation(web.site.services, viewer, c.id, { body: "The light!", submissionKey: crypto.randomUUID() });
    if (!commented.ok) throw new Error("comment");

    const overview = await readable(await web.http.get(`/members/${viewer.handle}`));
    expect(overview).toContain(`href="/forge/${c.id}#comment-${commented.value.id}"`);
    expect(overview).toContain("Replies (23)");
    expect(overview).toContain(`href="/members/${viewer.handle}?tab=replies#contributions"`);
    expect(overview).toContain("All 23 replies");

    const first = await readable(await web.http.get(`/members/${viewer.handle}?tab=replies`));
    const listed = (html: string) => [...html.matchAll(/#reply-(\d+)"/g)].map((m) => Number(m[1]));
    const newest = [...replies].reverse();
    expect(listed(first)).toEqual(newest.slice(0, 20));
    expect(first).toMatch(/aria-current="page"[^>]*>Replies \(23\)/);
    const older = /href="([^"]*before=[^"#]*)#contributions"[^>]*>Older/.exec(first)?.[1]?.replaceAll("&amp;", "&");
    expect(older).toBeDefined();
    const second = await readable(await web.http.get(older!));
    expect(listed(second)).toEqual(newest.slice(20));
    expect(second).toContain(">Newest</a>");
    expect(second).not.toContain(">Older</a>");

    expect((await web.http.get(`/members/${viewer.handle}?tab=nope`)).status).toBe(404);
    expect((await web.http.get(`/members/${viewer.handle}?tab=replies&before=garbage`)).status).toBe(400);
  });

  it("a reply under a discussion a moderator hides leaves its author's kept profile at once", async () => {
    const { viewer } = await joined();
    const moderator = await joined();
    await db().updateTable("member").set({ role: "moderator" }).where("id", "=", moderator.viewer.id).execute();
    const d = await discussion(web.site.services, { title: "A thread about to go" });
    const posted = await postReply(web.site.services, viewer, d.id, { body: "My reply in it.", submissionKey: crypto.randomUUID() });
    if (!posted.ok) throw new Error("reply");
    const path = `/members/${viewer.handle}?tab=replies`;
    expect(await readable(await web.http.get(path))).toContain(`#reply-${posted.value.id}"`);
    // Kept now: the second visit is a hit.
    expect((await web.http.get(path)).headers.get("x-page-cache")).toBe("hit");
    // The moderator hides the discussion, as the page's Hide button does.
    const hidden = await web.http.post(
      `/${d.section}/${d.topicId}/${d.id}-${d.slug}`,
      { intent: "moderate", kind: "discussion", id: String(d.id), action: "hide" },
      { cookie: moderator.cookie },
    );
    expect(hidden.status).toBe(302);
    const after = await readable(await web.http.get(path));
    expect(after).not.toContain(`#reply-${posted.value.id}"`);
    expect(after).toContain("No replies yet.");
  });

  it("links every author name in a discussion to the author's profile", async () => {
    const { viewer } = await joined();
    const d = await discussion(web.site.services, { author: viewer });
    const html = await readable(await web.http.get(`/${d.section}/${d.topicId}/${d.id}-${d.slug}`));
    expect(html).toMatch(new RegExp(`<a[^>]+href="/members/${viewer.handle}"[^>]*><span data-slot="author-name"[^>]*>${viewer.name}</span>`));
  });
});

describe(`the members directory on ${ENGINE}`, () => {
  it("finds members by name, rank and path, most XP or newest first, in keyset pages, and never a deleted account", async () => {
    const made: Viewer[] = [];
    for (let i = 0; i < 26; i++) {
      made.push(await member(db(), { name: `Wrenfold ${String(i).padStart(2, "0")}`, xp: i * 10, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) }));
    }
    // XP on the ledger moves the stored XP and rank only through the ledger's own transaction.
    const names = (html: string) => [...html.matchAll(/>(Wrenfold \d\d)</g)].map((m) => m[1]);
    const first = await readable(await web.http.get("/members?name=wrenfold"));
    expect(names(first)).toEqual(
      made
        .map((m) => m.name)
        .reverse()
        .slice(0, 24),
    );
    const next = /href="([^"]*after=[^"]*)"[^>]*>Next page/.exec(first)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toContain("name=wrenfold");
    const second = await readable(await web.http.get(next!));
    expect(names(second)).toEqual(
      made
        .map((m) => m.name)
        .reverse()
        .slice(24),
    );
    expect(second).toContain(">First page</a>");

    const newest = await readable(await web.http.get("/members?name=wrenfold&sort=newest"));
    expect(names(newest).slice(0, 3)).toEqual(["Wrenfold 25", "Wrenfold 24", "Wrenfold 23"]);
    // Rank: 50 XP and more is Acolyte, under 150.
    const acolytes = await readable(await web.http.get("/members?name=wrenfold&rank=acolyte"));
    expect(names(acolytes).sort()).toEqual(
      made
        .slice(5, 15)
        .map((m) => m.name)
        .sort(),
    );

    // Path follows the interests a member chose.
    const { viewer: monk } = await joined({ fullName: "Wrenfold Monk", interests: { meditation: true, fitness: false, philosophy: false, creativity: false } });
    const { viewer: warrior } = await joined({
      fullName: "Wrenfold Warrior",
      interests: { meditation: false, fitness: true, philosophy: false, creativity: false },
    });
    const monks = await readable(await web.http.get("/members?name=wrenfold&path=monk"));
    expect(monks).toContain(`href="/members/${monk.handle}"`);
    expect(monks).not.toContain(`href="/members/${warrior.handle}"`);

    // Deleted accounts are gone; unknown filters are ignored; a page link that is no cursor is a 400.
    await db().updateTable("member").set({ name: "[deleted member]", handle: "deleted-wrenfold" }).where("id", "=", made[25]!.id).execute();
    expect(await readable(await web.http.get("/members?sort=newest"))).not.toContain("deleted-wrenfold");
    expect((await web.http.get("/members?rank=emperor&path=ninja&sort=sideways")).status).toBe(200);
    expect((await web.http.get("/members?after=garbage")).status).toBe(400);
    expect(await readable(await web.http.get("/members?name=nobody-at-all-here"))).toContain("No member matches.");
  });
});

describe(`settings on ${ENGINE}`, () => {
  it("sends a visitor to sign-in, for the page and for the export", async () => {
    expect((await web.http.get("/settings")).headers.get("location")).toBe("/signin?redirectTo=%2Fsettings");
    expect((await web.http.get("/settings/export")).headers.get("location")).toBe("/signin?redirectTo=%2Fsettings%2Fexport");
    expect((await web.http.post("/settings?intent=profile", { fullName: "Somebody" })).status).toBe(302);
  });

  it("saves name, bio, interests and time zone", async () => {
    const { viewer, cookie } = await joined();
    const res = await settingsPost("profile", { fullName: "Ada Renamed", bio: "New bio.", "interests.philosophy": "on", timeZone: "Europe/Berlin" }, cookie);
    expect(res.status).toBe(200);
    expect(await readable(res)).toContain("Your profile is saved.");
    const row = await memberRow(viewer.id);
    expect(row).toMatchObject({ name: "Ada Renamed", bio: "New bio.", interests: '["philosophy"]', time_zone: "Europe/Berlin" });
    const page = await readable(await web.http.get("/settings", { cookie }));
    expect(page).toContain('value="Europe/Berlin" selected=""');
    // A zone typed in another case is stored by its canonical name, the one the list selects.
    expect((await settingsPost("profile", { fullName: "Ada Renamed", timeZone: "asia/tokyo" }, cookie)).status).toBe(200);
    expect((await memberRow(viewer.id)).time_zone).toBe("Asia/Tokyo");
  });

  it("refuses a 1-character name, a 251-character bio and a time zone that does not exist, changing nothing", async () => {
    const { viewer, cookie } = await joined();
    const before = await memberRow(viewer.id);
    const cases: [Record<string, string>, string][] = [
      [{ fullName: "A", bio: "", timeZone: "UTC" }, "Full name must be at least 2 characters"],
      [{ fullName: "Ada", bio: "x".repeat(251), timeZone: "UTC" }, "Bio cannot exceed 250 characters"],
      [{ fullName: "Ada", bio: "", timeZone: "Mars/Olympus_Mons" }, "Choose a time zone from the list"],
      [{ fullName: "Ada", bio: "", timeZone: "<script>" }, "Choose a time zone from the list"],
    ];
    for (const [form, message] of cases) {
      const res = await settingsPost("profile", form, cookie);
      expect(res.status, message).toBe(400);
      expect(await readable(res)).toContain(message);
    }
    expect(await memberRow(viewer.id)).toEqual(before);
    expect((await settingsPost("nonsense", {}, cookie)).status).toBe(400);
  });

  it("takes the browser's time zone at join, and UTC for one that does not exist", async () => {
    const { viewer } = await joined({ timeZone: "America/Chicago" });
    expect((await memberRow(viewer.id)).time_zone).toBe("America/Chicago");
    const made = await joined({ timeZone: "Nowhere/Land" });
    expect((await memberRow(made.viewer.id)).time_zone).toBe("UTC");
    const none = await joined();
    expect((await memberRow(none.viewer.id)).time_zone).toBe("UTC");
  });
});

describe(`password change on ${ENGINE}`, () => {
  it("needs the current password, then ends every other session and keeps this one", async () => {
    const { viewer, cookie, email } = await joined();
    const second = cookieHeader((await signIn(email, PASSWORD)).headers);
    expect((await web.http.get("/dashboard", { cookie: second })).status).toBe(200);

    const wrong = await settingsPost("password", { currentPassword: "Wrong1234", password: "Newpass123", confirmPassword: "Newpass123" }, cookie);
    expect(wrong.status).toBe(400);
    expect(await readable(wrong)).toContain("The password is not correct");
    expect((await web.http.get("/dashboard", { cookie: second })).status).toBe(200);

    const weak = await settingsPost("password", { currentPassword: PASSWORD, password: "short", confirmPassword: "short" }, cookie);
    expect(await readable(weak)).toContain("Password must be at least 8 characters");

    const res = await settingsPost("password", { currentPassword: PASSWORD, password: "Newpass123", confirmPassword: "Newpass123" }, cookie);
    expect(res.status).toBe(200);
    expect(await readable(res)).toContain("Your password is changed.");
    const fresh = cookieHeader(res.headers);
    expect(fresh).toContain("ipos.session_token=");
    expect((await web.http.get("/dashboard", { cookie: second })).status).toBe(302);
    expect((await web.http.get("/dashboard", { cookie })).status).toBe(302);
    expect((await web.http.get("/dashboard", { cookie: fresh })).status).toBe(200);
    const sessions = await db().selectFrom("session").select("id").where("member_id", "=", viewer.id).execute();
    expect(sessions).toHaveLength(1);
    expect((await signIn(email, PASSWORD)).status).toBe(400);
    expect((await signIn(email, "Newpass123")).status).toBe(302);
  });
});

describe(`email change on ${ENGINE}`, () => {
  it("refuses a wrong password and a taken address, changing nothing and mailing nobody", async () => {
    const { viewer, cookie } = await joined();
    const other = await joined();
    const wrong = await settingsPost("email", { email: "fresh-address@example.org", currentPassword: "Wrong1234" }, cookie);
    expect(wrong.status).toBe(400);
    expect(await readable(wrong)).toContain("The password is not correct");
    const taken = await settingsPost("email", { email: other.email.toUpperCase(), currentPassword: PASSWORD }, cookie);
    expect(taken.status).toBe(400);
    expect(await readable(taken)).toContain("An account with this email already exists");
    const bad = await settingsPost("email", { email: "not-an-address", currentPassword: PASSWORD }, cookie);
    expect(await readable(bad)).toContain("Please enter a valid email address");
    expect((await memberRow(viewer.id)).email).toBe(viewer.email);
    const mails = await db()
      .selectFrom("mail_outbox")
      .select("id")
      .where("kind", "=", "email-change")
      .where("to_address", "in", ["fresh-address@example.org", other.email])
      .execute();
    expect(mails).toHaveLength(0);
  });

  it("mails a link to the new address; only following it (a POST) changes the address, once", async () => {
    const { viewer, cookie } = await joined();
    const newAddress = `moved-${Date.now()}@example.org`;
    const res = await settingsPost("email", { email: newAddress, currentPassword: PASSWORD }, cookie);
    expect(res.status).toBe(200);
    expect(await readable(res)).toContain(`We sent a link to ${newAddress}.`);
    expect((await memberRow(viewer.id)).email).toBe(viewer.email);

    const mail = await db().selectFrom("mail_outbox").selectAll().where("to_address", "=", newAddress).executeTakeFirstOrThrow();
    expect(mail.kind).toBe("email-change");
    const link = mail.text_body.match(/http:\/\/localhost:3000(\/settings\/email\?token=[^\s]+)/)?.[1];
    expect(link).toBeDefined();
    expect(mail.html_body).toContain(link!.replaceAll("&", "&amp;"));
    const token = new URL(link!, "http://x").searchParams.get("token")!;
    // The token itself is never stored, only its hash.
    const stored = await db().selectFrom("verification").select("identifier").where("value", "like", `${viewer.id} %`).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].identifier).not.toContain(token);

    const page = await web.http.get(link!);
    expect(page.status).toBe(200);
    expect(await readable(page)).toContain(newAddress);
    expect((await memberRow(viewer.id)).email).toBe(viewer.email);

    const confirm = await web.http.post("/settings/email", { token });
    expect(confirm.status).toBe(302);
    expect(confirm.headers.get("location")).toBe("/settings/email?changed=1");
    expect((await memberRow(viewer.id)).email).toBe(newAddress);
    expect(await readable(await web.http.get("/settings/email?changed=1"))).toContain("Your email address is changed");

    const again = await web.http.post("/settings/email", { token });
    expect(again.status).toBe(404);
    expect((await web.http.get(link!)).status).toBe(404);
    expect((await signIn(newAddress, PASSWORD)).status).toBe(302);
    expect((await signIn(viewer.email, PASSWORD)).status).toBe(400);
  });

  it("a link older than 24 hours changes nothing; an unknown token is a 404", async () => {
    const { viewer } = await joined();
    const asked = new Date(Date.now() - EMAIL_CHANGE_LINK_MS - 60_000);
    const { services } = web.site;
    const newAddress = `late-${Date.now()}@example.org`;
    const requestHeaders = new Headers({ cookie: await joinedCookieFor(viewer) });
    const result = await requestEmailChange(services, viewer, { email: newAddress, currentPassword: PASSWORD }, requestHeaders, asked);
    expect(result.ok).toBe(true);
    const mail = await db().selectFrom("mail_outbox").select("text_body").where("to_address", "=", newAddress).executeTakeFirstOrThrow();
    const token = mail.text_body.match(/token=([^\s]+)/)![1];
    expect((await web.http.get(`/settings/email?token=${token}`)).status).toBe(404);
    const late = await confirmEmailChange(services, decodeURIComponent(token));
    expect(late.ok).toBe(false);
    expect((await memberRow(viewer.id)).email).toBe(viewer.email);
    expect((await web.http.post("/settings/email", { token: "made-up" })).status).toBe(404);
    expect((await web.http.post("/settings/email", {})).status).toBe(404);
  });

  it("a link for an address someone took in the meantime changes nothing and says so", async () => {
    const { viewer, cookie } = await joined();
    const wanted = `wanted-${Date.now()}@example.org`;
    const token = await emailChangeToken(web, cookie, wanted);
    await joined({ email: wanted });
    const res = await web.http.post("/settings/email", { token });
    expect(res.status).toBe(409);
    expect(await readable(res)).toContain("An account with this email already exists");
    expect((await memberRow(viewer.id)).email).toBe(viewer.email);
  });

  it("of 50 parallel confirmations of one link, exactly one changes the address", async () => {
    const { viewer, cookie } = await joined();
    const newAddress = `race-${Date.now()}@example.org`;
    const token = await emailChangeToken(web, cookie, newAddress);
    const results = await Promise.all(Array.from({ length: 50 }, () => web.http.post("/settings/email", { token })));
    expect(results.filter((r) => r.status === 302)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(49);
    expect((await memberRow(viewer.id)).email).toBe(newAddress);
  });
});

/** Signs the member in again to get a cookie for calls to the services that read the session. */
const cookies = new Map<string, string>();
async function joinedCookieFor(viewer: Viewer) {
  const known = cookies.get(viewer.id);
  if (known) return known;
  const res = await signIn(viewer.email, PASSWORD);
  const cookie = cookieHeader(res.headers);
  cookies.set(viewer.id, cookie);
  return cookie;
}

describe(`data export on ${ENGINE}`, () => {
  it("downloads one's own data as a JSON attachment, without secrets or other members' data", async () => {
    const { viewer, cookie } = await joined();
    const stranger = await member(db(), { name: "Stranger Danger", email: "stranger@example.org" });
    const d = await discussion(web.site.services, { author: viewer, title: "My own discussion here" });
    await db()
      .insertInto("reply")
      .values({
        discussion_id: d.id,
        author_id: stranger.id,
        body: "Stranger's reply",
        body_html: "<p>Stranger's reply</p>\n",
        created_at: new Date().toISOString(),
        edited_at: null,
        deleted_at: null,
        hidden_at: null,
        submission_key: null,
      })
      .execute();
    const q = await question(web.site.services, { asker: stranger, title: "A stranger's question" });
    await answer(web.site.services, q.id, { author: viewer, body: "My answer to it" });
    await subscribe(web.site.services, viewer.email);
    const c = await challenge(db(), { title: "Thirty cold mornings" });
    await attempt(db(), viewer.id, c.id, { startsOn: "2026-01-01", endsOn: "2026-01-07", days: ["2026-01-01", "2026-01-02"] });
    await attempt(db(), stranger.id, c.id, { startsOn: "2026-01-01", endsOn: "2026-01-07", days: ["2026-01-03"] });
    // What they are writing, and an earlier version of their discussion (issue 32).
    await web.http.post("/drafts", { place: `reply:${d.id}`, body: "Half a thought", label: "Reply in My own discussion here", url: "/" }, { cookie });
    await db()
      .insertInto("post_revision")
      .values({
        kind: "discussion",
        post_id: d.id,
        title: "My first title",
        body: "What I wrote first",
        written_at: "2026-01-01T00:00:00.000Z",
        replaced_at: "2026-01-02T00:00:00.000Z",
        diff_html: "",
      })
      .execute();

    const upload = new FormData();
    upload.append("image", new Blob([(await png(40, 30)) as Uint8Array<ArrayBuffer>]), "stance.png");
    const picture = (await (
      await fetch(`${web.http.base}/uploads/images`, { method: "POST", headers: { origin: web.http.base, cookie }, body: upload })
    ).json()) as {
      url: string;
    };

    const res = await web.http.get("/settings/export", { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="inner-peace-outer-strength-.+\.json"$/);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body.profile).toMatchObject({ id: viewer.id, name: viewer.name, email: viewer.email, handle: viewer.handle });
    expect(body.discussions.map((x: { title: string }) => x.title)).toEqual(["My own discussion here"]);
    expect(body.answers.map((x: { body: string }) => x.body)).toEqual(["My answer to it"]);
    expect(body.xp.length).toBeGreaterThan(0);
    expect(body.newsletter).toMatchObject({ status: "pending" });
    expect(body.challengeAttempts).toMatchObject([{ challenge_id: c.id, title: "Thirty cold mornings", status: "active", check_in_count: 2 }]);
    expect(body.checkIns.map((x: { day: string }) => x.day)).toEqual(["2026-01-01", "2026-01-02"]);
    expect(body.pictures).toMatchObject([{ url: picture.url, width: 40, height: 30, inAPostSince: null }]);
    expect(body.drafts).toMatchObject([{ place: `reply:${d.id}`, body: "Half a thought" }]);
    expect(body.revisions).toMatchObject([{ kind: "discussion", post_id: d.id, title: "My first title", body: "What I wrote first" }]);
    for (const key of [
      "discussions",
      "replies",
      "questions",
      "answers",
      "creations",
      "creationComments",
      "likes",
      "helpfulVotes",
      "xp",
      "topicMemberships",
      "challengeAttempts",
      "checkIns",
      "bookmarks",
      "reactions",
      "flags",
      "blocks",
      "drafts",
      "pictures",
      "revisions",
    ]) {
      expect(Array.isArray(body[key]), key).toBe(true);
    }
    const account = await db().selectFrom("account").select("password").where("member_id", "=", viewer.id).executeTakeFirstOrThrow();
    const session = await db().selectFrom("session").select("token").where("member_id", "=", viewer.id).executeTakeFirstOrThrow();
    expect(text).not.toContain(account.password!);
    expect(text).not.toContain(session.token);
    expect(text).not.toContain("stranger@example.org");
    expect(text).not.toContain("Stranger Danger");
    expect(text).not.toContain("Stranger's reply");
  });
});

describe(`account deletion on ${ENGINE}`, () => {
  it("a wrong password deletes nothing", async () => {
    const { viewer, cookie } = await joined();
    const res = await settingsPost("delete", { currentPassword: "Wrong1234" }, cookie);
    expect(res.status).toBe(400);
    expect(await readable(res)).toContain("The password is not correct");
    expect(await memberRow(viewer.id)).toMatchObject({ name: viewer.name, email: viewer.email });
    expect((await web.http.get("/dashboard", { cookie })).status).toBe(200);
  });

  it("removes personal data, sessions and newsletter subscription; content stays as '[deleted member]' without a link", async () => {
    const { viewer, cookie, email } = await joined();
    const second = cookieHeader((await signIn(email, PASSWORD)).headers);
    const d = await discussion(web.site.services, { author: viewer, title: "A discussion that outlives me" });
    await subscribe(web.site.services, email);
    await web.http.post("/signin", { email, password: "Wrong1234" });

    const res = await settingsPost("delete", { currentPassword: PASSWORD }, cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.getSetCookie().join()).toContain("ipos_flash=account-deleted");

    const row = await memberRow(viewer.id);
    expect(row.name).toBe("[deleted member]");
    expect(row.handle).toMatch(/^deleted-[a-z0-9]+$/);
    expect(row.email).toMatch(/^deleted-[a-z0-9]+@deleted\.invalid$/);
    expect(row).toMatchObject({ bio: null, interests: "[]", image: null });
    for (const table of ["session", "account"] as const) {
      expect(await db().selectFrom(table).select("id").where("member_id", "=", viewer.id).execute(), table).toHaveLength(0);
    }
    expect(await db().selectFrom("verification").select("id").where("value", "like", `%${viewer.id}%`).execute()).toHaveLength(0);
    expect(await db().selectFrom("newsletter_subscription").select("id").where("email", "=", email).execute()).toHaveLength(0);
    expect(await db().selectFrom("rate_limit_hit").select("id").where("key", "like", `%${email}%`).execute()).toHaveLength(0);
    expect(await db().selectFrom("mail_outbox").select("id").where("to_address", "=", email).execute()).toHaveLength(0);
    // XP rows stay with the anonymous id, so the ledger's unique key and others' awards hold.
    expect((await db().selectFrom("xp_event").select("id").where("member_id", "=", viewer.id).execute()).length).toBeGreaterThan(0);

    expect((await web.http.get("/dashboard", { cookie })).status).toBe(302);
    expect((await web.http.get("/dashboard", { cookie: second })).status).toBe(302);
    expect((await web.http.get(`/members/${viewer.handle}`)).status).toBe(404);
    expect((await web.http.get(`/members/${row.handle}`)).status).toBe(404);

    const page = await readable(await web.http.get(`/${d.section}/${d.topicId}/${d.id}-${d.slug}`));
    expect(page).toContain("A discussion that outlives me");
    expect(page).toContain("[deleted member]");
    expect(page).not.toContain(viewer.name);
    expect(page).not.toContain(`/members/${row.handle}`);
    expect((await signIn(email, PASSWORD)).status).toBe(400);

    // The address is free again: a new account may take it.
    const again = await joined({ email });
    expect(again.viewer.id).not.toBe(viewer.id);
  });

  it("no join takes a handle in the prefix that marks deleted accounts", async () => {
    const { viewer } = await joined({ fullName: "Deleted Person" });
    expect(viewer.handle.startsWith("deleted-")).toBe(false);
    expect((await web.http.get(`/members/${viewer.handle}`)).status).toBe(200);
  });
});
