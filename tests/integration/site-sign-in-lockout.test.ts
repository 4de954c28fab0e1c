import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { registerMember } from "~/.server/domain/accounts/account-service";
import { requestPasswordReset, resetPassword } from "~/.server/domain/accounts/password-reset";
import { SIGN_IN_LINK_INVALID, SIGN_IN_LINK_SENT } from "~/.server/domain/accounts/sign-in-link";
import { DEVICE_COOKIE, TRUSTED_DEVICES_PER_MEMBER } from "~/.server/domain/accounts/trusted-devices";
import { SIGN_IN_LIMIT } from "~/lib/limits";
import { joinSchema } from "~/schemas/account";
import { readable, siteOverHttp } from "./site-server";
import { cookieHeader, ENGINE } from "./test-services";

// Issue 25, item 9 (ADR 0042): ten wrong passwords from anywhere lock an address, but not its owner,
// who gets through from a browser that signed in before, or by a link mailed to the address.
const web = siteOverHttp({ demo: false });
const db = () => web.site.services.db;
const PASSWORD = "Secret123";
const LOCKED = "Too many attempts. Try again in 15 minutes.";

/** Every request from an address of its own, so the per-IP limit (which stays) is never what refuses. */
let requests = 0;
const fresh = () => {
  requests += 1;
  return `10.88.${Math.floor(requests / 250)}.${(requests % 250) + 1}`;
};

let joins = 0;
async function joined() {
  joins += 1;
  const email = `lockout-${joins}-${Date.now()}@example.org`;
  const values = joinSchema.parse({ fullName: `Locked Owner ${joins}`, email, password: PASSWORD, confirmPassword: PASSWORD, termsAccepted: true });
  const result = await registerMember(web.site.services, values, { headers: new Headers(), ip: fresh() });
  if (!result.ok) throw new Error("join failed");
  return { email, id: result.viewer.id };
}

function signIn(email: string, password: string, cookie?: string) {
  return web.http.post("/signin", { email, password }, { "x-forwarded-for": fresh(), ...(cookie ? { cookie } : {}) });
}

/** The device cookie a response sets, as the browser sends it back ("ipos_device=…"). */
function deviceOf(res: Response) {
  const pair = cookieHeader(res.headers)
    .split("; ")
    .find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
  if (!pair) throw new Error("no device cookie set");
  return pair;
}

/** A browser that signed in with the right password once: its device cookie. */
async function trustedDevice(email: string) {
  const res = await signIn(email, PASSWORD);
  expect(res.status).toBe(302);
  return deviceOf(res);
}

/** Ten wrong passwords for the address, each from another IP and browser. */
async function lockOut(email: string) {
  for (let i = 0; i < SIGN_IN_LIMIT; i++) expect((await signIn(email, `Wrong${i}abc`)).status).toBe(400);
  expect((await signIn(email, PASSWORD)).status).toBe(429);
}

const sessionsOf = async (memberId: string) =>
  Number(
    (
      await db()
        .selectFrom("session")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("member_id", "=", memberId)
        .executeTakeFirstOrThrow()
    ).n,
  );

async function mailedLinks(email: string) {
  const rows = await db().selectFrom("mail_outbox").select(["text_body", "kind"]).where("to_address", "=", email).where("kind", "=", "sign-in-link").execute();
  return rows.map((r) => r.text_body.match(/\/signin\/link\?token=([A-Za-z0-9_-]+)/)![1]);
}

function askForLink(email: string, ip = fresh()) {
  return web.http.post("/signin/email-link", { email }, { "x-forwarded-for": ip });
}

async function linkFor(email: string) {
  const res = await askForLink(email);
  expect(res.status).toBe(200);
  const tokens = await mailedLinks(email);
  expect(tokens).toHaveLength(1);
  return tokens[0];
}

/** What the tables keep of a token: its SHA-256 in hex, as since the tables were made (ADR 0042). */
const hexHash = (token: string) => createHash("sha256").update(token).digest("hex");

const devicesOf = async (memberId: string) =>
  (await db().selectFrom("trusted_device").select("token_hash").where("member_id", "=", memberId).execute()).map((r) => r.token_hash);

const useLink = (token: string, cookie?: string) => web.http.post("/signin/link", { token }, cookie ? { cookie } : {});

describe(`the owner of a locked address on ${ENGINE}`, { timeout: 60_000 }, () => {
  it("signs in from a browser that signed in before, while a new browser gets 429", async () => {
    const { email } = await joined();
    const device = await trustedDevice(email);
    await lockOut(email);
    const stranger = await signIn(email, PASSWORD);
    expect(stranger.status).toBe(429);
    expect(await readable(stranger)).toContain(LOCKED);
    const owner = await signIn(email, PASSWORD, device);
    expect(owner.status).toBe(302);
    expect(owner.headers.get("location")).toBe("/dashboard");
    expect(cookieHeader(owner.headers)).toContain("ipos.session_token=");
    // The same device keeps its cookie for another year.
    expect(deviceOf(owner)).toBe(device);
    // The owner's success does not clear the address's count: a stranger is still refused.
    expect((await signIn(email, PASSWORD)).status).toBe(429);
  });

  it(`counts the trusted device's own wrong passwords: ${SIGN_IN_LIMIT}, then 429 even with the right one`, async () => {
    const { email } = await joined();
    const device = await trustedDevice(email);
    for (let i = 0; i < SIGN_IN_LIMIT; i++) expect((await signIn(email, `Wrong${i}abc`, device)).status).toBe(400);
    const refused = await signIn(email, PASSWORD, device);
    expect(refused.status).toBe(429);
    expect(await readable(refused)).toContain(LOCKED);
    // They counted against the device, not the address.
    expect((await signIn(email, PASSWORD)).status).toBe(302);
  });

  it("is not let through by another member's device cookie, nor by a forged or malformed one", async () => {
    const owner = await joined();
    const other = await joined();
    const othersDevice = await trustedDevice(other.email);
    await lockOut(owner.email);
    expect((await signIn(owner.email, PASSWORD, othersDevice)).status).toBe(429);
    const forged = `${DEVICE_COOKIE}=${"A".repeat(43)}`;
    expect((await signIn(owner.email, PASSWORD, forged)).status).toBe(429);
    expect((await signIn(owner.email, PASSWORD, `${DEVICE_COOKIE}=not-a-token; other=1`)).status).toBe(429);
    // The other member's own device still works for them.
    expect((await signIn(other.email, PASSWORD, othersDevice)).status).toBe(302);
  });

  it("loses the trust of every device when the password is reset", async () => {
    const { email } = await joined();
    const device = await trustedDevice(email);
    await lockOut(email);
    await requestPasswordReset(web.site.services, email, fresh());
    const mail = await db()
      .selectFrom("mail_outbox")
      .select("text_body")
      .where("to_address", "=", email)
      .where("kind", "=", "password-reset")
      .executeTakeFirstOrThrow();
    const token = mail.text_body.match(/\/reset-password\?token=([A-Za-z0-9_-]+)/)![1];
    expect(await resetPassword(web.site.services, token, "NewSecret456")).toEqual({ ok: true });
    expect((await signIn(email, "NewSecret456", device)).status).toBe(429);
  });

  it("loses the trust of every device when the password is changed in settings", async () => {
    const { email } = await joined();
    const signedIn = await signIn(email, PASSWORD);
    const device = deviceOf(signedIn);
    await lockOut(email);
    const changed = await web.http.post(
      "/settings?intent=password",
      { currentPassword: PASSWORD, password: "Newpass123", confirmPassword: "Newpass123" },
      { cookie: cookieHeader(signedIn.headers) },
    );
    expect(await readable(changed)).toContain("Your password is changed.");
    expect((await signIn(email, "Newpass123", device)).status).toBe(429);
  });

  it("loses its devices and links when the address changes or the account is deleted", async () => {
    const trustOf = async (memberId: string) => ({
      devices: (await db().selectFrom("trusted_device").select("token_hash").where("member_id", "=", memberId).execute()).length,
      links: (await db().selectFrom("sign_in_link").select("token_hash").where("member_id", "=", memberId).execute()).length,
    });
    const moving = await joined();
    const movingSession = cookieHeader((await signIn(moving.email, PASSWORD)).headers);
    await linkFor(moving.email);
    expect(await trustOf(moving.id)).toEqual({ devices: 1, links: 1 });
    const newAddress = `moved-${Date.now()}@example.org`;
    await web.http.post("/settings?intent=email", { email: newAddress, currentPassword: PASSWORD }, { cookie: movingSession });
    const mail = await db().selectFrom("mail_outbox").select("text_body").where("to_address", "=", newAddress).executeTakeFirstOrThrow();
    const token = decodeURIComponent(mail.text_body.match(/token=([^\s]+)/)![1]);
    expect((await web.http.post("/settings/email", { token }, { cookie: movingSession })).status).toBeLessThan(400);
    expect((await db().selectFrom("member").select("email").where("id", "=", moving.id).executeTakeFirstOrThrow()).email).toBe(newAddress);
    expect(await trustOf(moving.id)).toEqual({ devices: 0, links: 0 });

    const leaving = await joined();
    const leavingSession = cookieHeader((await signIn(leaving.email, PASSWORD)).headers);
    await linkFor(leaving.email);
    expect(await trustOf(leaving.id)).toEqual({ devices: 1, links: 1 });
    expect((await web.http.post("/settings?intent=delete", { currentPassword: PASSWORD }, { cookie: leavingSession })).status).toBe(302);
    expect(await trustOf(leaving.id)).toEqual({ devices: 0, links: 0 });
  });

  it(`keeps ${TRUSTED_DEVICES_PER_MEMBER} devices: a new browser beyond them ends the trust of the least recently used`, async () => {
    const { email, id } = await joined();
    const devices: string[] = [];
    for (let i = 0; i < TRUSTED_DEVICES_PER_MEMBER; i++) devices.push(await trustedDevice(email));
    // The first device signs in again: now the second is the one used longest ago.
    expect((await signIn(email, PASSWORD, devices[0])).status).toBe(302);
    expect(await devicesOf(id)).toHaveLength(TRUSTED_DEVICES_PER_MEMBER);
    const newest = await trustedDevice(email);
    const kept = await devicesOf(id);
    expect(kept).toHaveLength(TRUSTED_DEVICES_PER_MEMBER);
    const hashOf = (device: string) => hexHash(device.slice(DEVICE_COOKIE.length + 1));
    expect(kept).not.toContain(hashOf(devices[1]));
    expect(kept).toEqual(expect.arrayContaining([devices[0], ...devices.slice(2), newest].map(hashOf)));
    await lockOut(email);
    expect((await signIn(email, PASSWORD, devices[1])).status).toBe(429);
    for (const device of [devices[0], devices[2], newest]) expect((await signIn(email, PASSWORD, device)).status).toBe(302);
  });

  it("takes the rate-limit counts of its address and of its devices with a deleted account, and no one else's", async () => {
    const leaving = await joined();
    const bystander = await joined();
    const signedIn = await signIn(leaving.email, PASSWORD);
    const device = deviceOf(signedIn);
    const othersDevice = await trustedDevice(bystander.email);
    // A wrong password from each device, one from a new browser, a sign-in link, a join with the address.
    expect((await signIn(leaving.email, "Wrong1abc", device)).status).toBe(400);
    expect((await signIn(bystander.email, "Wrong1abc", othersDevice)).status).toBe(400);
    expect((await signIn(leaving.email, "Wrong1abc")).status).toBe(400);
    await linkFor(leaving.email);
    const values = joinSchema.parse({ fullName: "Someone Else", email: leaving.email, password: PASSWORD, confirmPassword: PASSWORD, termsAccepted: true });
    expect((await registerMember(web.site.services, values, { headers: new Headers(), ip: fresh() })).ok).toBe(false);

    const deviceKey = (cookie: string) => `signin:device:${hexHash(cookie.slice(DEVICE_COOKIE.length + 1))}`;
    const keys = [
      `signin:email:${leaving.email}`,
      `signin-link:email:${leaving.email}`,
      `join-attempt-mail:${leaving.email}`,
      deviceKey(device),
      deviceKey(othersDevice),
    ];
    const counted = async () =>
      [...new Set((await db().selectFrom("rate_limit_hit").select("key").where("key", "in", keys).execute()).map((r) => r.key))].sort();
    expect(await counted()).toEqual([...keys].sort());

    expect((await web.http.post("/settings?intent=delete", { currentPassword: PASSWORD }, { cookie: cookieHeader(signedIn.headers) })).status).toBe(302);
    expect(await counted()).toEqual([deviceKey(othersDevice)]);
  });

  it("keeps the device trusted after signing out: that is what lets the owner back in", async () => {
    const { email } = await joined();
    const signedIn = await signIn(email, PASSWORD);
    const device = deviceOf(signedIn);
    const out = await web.http.post("/signout", {}, { cookie: cookieHeader(signedIn.headers) });
    expect(out.status).toBe(302);
    expect(out.headers.getSetCookie().some((c) => c.startsWith(`${DEVICE_COOKIE}=`))).toBe(false);
    // Signed out, the browser is a visitor again, served from memory like one, device cookie and all.
    await web.http.get("/faq");
    const page = await web.http.get("/faq", { cookie: device });
    expect(page.headers.get("x-page-cache")).toBe("hit");
    expect(await readable(page)).toContain("Sign In");
    await lockOut(email);
    expect((await signIn(email, PASSWORD, device)).status).toBe(302);
  });
});

describe(`a mailed one-time sign-in link on ${ENGINE}`, { timeout: 60_000 }, () => {
  it("is offered by the locked page, signs in once and trusts the browser; used again it cannot be", async () => {
    const { email, id } = await joined();
    await lockOut(email);
    const locked = await readable(await signIn(email, PASSWORD));
    expect(locked).toContain(LOCKED);
    expect(locked).toMatch(/<form[^>]*action="\/signin\/email-link"/);
    expect(locked).toContain("Email me a sign-in link");

    const asked = await askForLink(email);
    expect(asked.status).toBe(200);
    expect(await readable(asked)).toContain(SIGN_IN_LINK_SENT);
    const [token] = await mailedLinks(email);
    // The table keeps the link's hash as it always has: links already mailed keep working.
    expect(await db().selectFrom("sign_in_link").select("token_hash").where("member_id", "=", id).execute()).toEqual([{ token_hash: hexHash(token) }]);

    // Opening the link changes nothing (ADR 0007): the page offers the button.
    const page = await readable(await web.http.get(`/signin/link?token=${token}`));
    expect(page).toMatch(/<button[^>]*type="submit"[^>]*>Sign In<\/button>/);
    expect(page).not.toContain(SIGN_IN_LINK_INVALID);
    expect(await sessionsOf(id)).toBe(1); // the join's

    const used = await useLink(token);
    expect(used.status).toBe(302);
    expect(used.headers.get("location")).toBe("/dashboard");
    const cookie = cookieHeader(used.headers);
    expect(cookie).toContain("ipos.session_token=");
    expect((await web.http.get("/dashboard", { cookie })).status).toBe(200);
    expect(await sessionsOf(id)).toBe(2);

    const again = await useLink(token);
    expect(again.status).toBe(400);
    expect(await readable(again)).toContain(SIGN_IN_LINK_INVALID);
    expect(await readable(await web.http.get(`/signin/link?token=${token}`))).toContain("This link cannot be used");
    expect(await sessionsOf(id)).toBe(2);

    // The browser the link signed in is trusted: the password works from it while the address is locked.
    expect(await devicesOf(id)).toEqual([hexHash(deviceOf(used).slice(DEVICE_COOKIE.length + 1))]);
    expect((await signIn(email, PASSWORD, deviceOf(used))).status).toBe(302);
  });

  it("is asked for on a page of its own, the forgot-password page's twin with its own words", async () => {
    const pages = [
      {
        path: "/signin/email-link",
        texts: ["Sign in by email", "Email me a sign-in link", "We will mail a link that signs you in once, without your password."],
      },
      {
        path: "/forgot-password",
        texts: ["Forgot your password?", "Reset your password", "Enter the email address of your account and we will mail you a link.", "Send Reset Link"],
      },
    ];
    for (const { path, texts } of pages) {
      const page = await readable(await web.http.get(path));
      for (const text of [...texts, "Back to Sign In"]) expect(page, path).toContain(text);
      const refused = await web.http.post(path, { email: "not-an-address" }, { "x-forwarded-for": fresh() });
      expect(refused.status, path).toBe(400);
      expect(await readable(refused), path).toContain("Please enter a valid email address");
    }
  });

  it("gives the same answer for an address without an account, and mails nothing", async () => {
    const res = await askForLink("nobody-here@example.org");
    expect(res.status).toBe(200);
    expect(await readable(res)).toContain(SIGN_IN_LINK_SENT);
    expect(await db().selectFrom("mail_outbox").select("id").where("to_address", "=", "nobody-here@example.org").execute()).toEqual([]);
  });

  it("is mailed at most once per address in 5 minutes, whichever IP asks", async () => {
    const { email } = await joined();
    expect((await askForLink(email)).status).toBe(200);
    const second = await askForLink(email);
    expect(second.status).toBe(429);
    expect(await readable(second)).toContain("Too many attempts. Try again in 5 minutes.");
    expect(await mailedLinks(email)).toHaveLength(1);
  });

  it("is mailed once when 50 requests for one address arrive at the same moment", async () => {
    const { email } = await joined();
    const responses = await Promise.all(Array.from({ length: 50 }, () => askForLink(email)));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(49);
    expect(await mailedLinks(email)).toHaveLength(1);
  });

  it("cannot be used once expired, nor after the address changed, nor made up", async () => {
    const expired = await joined();
    const token = await linkFor(expired.email);
    await db()
      .updateTable("sign_in_link")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect(await readable(await web.http.get(`/signin/link?token=${token}`))).toContain(SIGN_IN_LINK_INVALID);
    expect((await useLink(token)).status).toBe(400);

    const moved = await joined();
    const movedToken = await linkFor(moved.email);
    await db()
      .updateTable("member")
      .set({ email: `moved-${moved.email}` })
      .where("id", "=", moved.id)
      .execute();
    expect((await useLink(movedToken)).status).toBe(400);
    expect(await sessionsOf(moved.id)).toBe(1);

    expect((await useLink("made-up-token")).status).toBe(400);
    expect((await useLink("")).status).toBe(400);
  });

  it("opens exactly one session when 50 browsers post the same link at once", async () => {
    const { email, id } = await joined();
    const token = await linkFor(email);
    const responses = await Promise.all(Array.from({ length: 50 }, () => useLink(token)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(49);
    expect(await sessionsOf(id)).toBe(2);
  });
});
