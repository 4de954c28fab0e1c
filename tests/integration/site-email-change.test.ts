import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { RESET_LINK_INVALID } from "~/.server/domain/accounts/password-reset";
import { CONTACT_EMAIL } from "~/lib/site";
import { readable, siteOverHttp } from "./site-server";
import { emailChangeToken } from "./site-join";
import { cookieHeader, ENGINE } from "./test-services";

// Issue 25, item 4: once a new address is confirmed, the old one has no hold on the account.

const web = siteOverHttp({ demo: false });
const db = () => web.site.services.db;
const PASSWORD = "Secret123";

let n = 0;
/** A member who joined over HTTP, with the session the join opened. */
async function joined() {
  n += 1;
  const email = `changer-${n}-${Date.now()}@example.org`;
  const name = `Address Changer ${n}`;
  const res = await web.http.post(
    "/join",
    { fullName: name, email, password: PASSWORD, confirmPassword: PASSWORD, termsAccepted: "on" },
    { "x-forwarded-for": `198.51.100.${n}` },
  );
  expect(res.status).toBe(200);
  const row = await db().selectFrom("member").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return { id: row.id, name, email, cookie: cookieHeader(res.headers) };
}

async function signIn(email: string, password: string) {
  return web.http.post("/signin", { email, password, redirectTo: "/dashboard" }, { "x-forwarded-for": `203.0.113.${++n}` });
}

/** The newest mail of a kind to an address, as the outbox holds it. */
async function mailTo(address: string, kind: string) {
  return db()
    .selectFrom("mail_outbox")
    .select(["subject", "text_body", "html_body"])
    .where("to_address", "=", address)
    .where("kind", "=", kind)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
}

/** Asks for a reset link on /forgot-password and returns its token. */
async function resetToken(email: string) {
  expect((await web.http.post("/forgot-password", { email }, { "x-forwarded-for": `192.0.2.${++n}` })).status).toBe(200);
  return (await mailTo(email, "password-reset")).text_body.match(/\/reset-password\?token=([A-Za-z0-9_-]+)/)![1];
}

/** Asks for the change in settings and returns the token of the link mailed to the new address. */
const changeRequested = (cookie: string, newAddress: string) => emailChangeToken(web, cookie, newAddress);

const dashboardStatus = async (cookie: string) => (await web.http.get("/dashboard", { cookie })).status;

describe(`confirming a new email address on ${ENGINE}`, () => {
  it("ends the reset links mailed to the old address: they cannot be used, and nobody signs in through them", async () => {
    const member = await joined();
    const before = await resetToken(member.email);
    const newAddress = `moved-${Date.now()}@example.org`;
    const change = await changeRequested(member.cookie, newAddress);
    // A link asked for while the change waits goes to the old address as well.
    const during = await resetToken(member.email);
    expect(await readable(await web.http.get(`/reset-password?token=${during}`))).not.toContain("This link cannot be used");

    expect((await web.http.post("/settings/email", { token: change }, { cookie: member.cookie })).status).toBe(302);
    expect((await db().selectFrom("member").select("email").where("id", "=", member.id).executeTakeFirstOrThrow()).email).toBe(newAddress);

    for (const token of [before, during]) {
      const page = await readable(await web.http.get(`/reset-password?token=${token}`));
      expect(page).toContain("This link cannot be used");
      expect(page).toContain(RESET_LINK_INVALID);
      const reset = await web.http.post("/reset-password", { token, password: "Hijacked789", confirmPassword: "Hijacked789" });
      expect(reset.status).toBe(400);
      expect(await readable(reset)).toContain(RESET_LINK_INVALID);
    }
    expect((await signIn(newAddress, "Hijacked789")).status).toBe(400);
    expect((await signIn(newAddress, PASSWORD)).status).toBe(302);
    const resets = await db().selectFrom("verification").select("id").where("identifier", "like", "reset-password:%").where("value", "=", member.id).execute();
    expect(resets).toHaveLength(0);
  });

  it("signs out every other session and keeps the member's own confirming one", async () => {
    const member = await joined();
    const other = cookieHeader((await signIn(member.email, PASSWORD)).headers);
    expect(await dashboardStatus(other)).toBe(200);
    const change = await changeRequested(member.cookie, `kept-${Date.now()}@example.org`);

    expect((await web.http.post("/settings/email", { token: change }, { cookie: member.cookie })).status).toBe(302);
    expect(await dashboardStatus(other)).toBe(302);
    expect(await dashboardStatus(member.cookie)).toBe(200);
    expect(await db().selectFrom("session").select("id").where("member_id", "=", member.id).execute()).toHaveLength(1);
  });

  it("signed out, or in another member's session, signs out every session of the member and none of the other's", async () => {
    for (const confirmingAs of ["nobody", "someone else", "a made-up session"] as const) {
      const member = await joined();
      const bystander = await joined();
      const change = await changeRequested(member.cookie, `elsewhere-${n}-${Date.now()}@example.org`);
      const cookies = { nobody: undefined, "someone else": bystander.cookie, "a made-up session": "ipos.session_token=made-up.c2lnbmF0dXJl" };
      const cookie = cookies[confirmingAs];
      const headers: Record<string, string> = cookie ? { cookie } : {};
      // What the page says holds here too: this browser is not the member's, so "every other" is every one.
      const page = await readable(await web.http.get(`/settings/email?token=${encodeURIComponent(change)}`, headers));
      expect(page, confirmingAs).toContain("Every other browser signed in to your account will be signed out.");
      expect((await web.http.post("/settings/email", { token: change }, headers)).status, confirmingAs).toBe(302);
      expect(await readable(await web.http.get("/settings/email?changed=1", headers)), confirmingAs).toContain(
        "Every other browser signed in to your account is signed out.",
      );
      expect(await dashboardStatus(member.cookie), confirmingAs).toBe(302);
      expect(await db().selectFrom("session").select("id").where("member_id", "=", member.id).execute(), confirmingAs).toHaveLength(0);
      expect(await dashboardStatus(bystander.cookie), confirmingAs).toBe(200);
    }
  });

  it("keeps the link's hash as it always has, so links mailed before a release still confirm", async () => {
    const member = await joined();
    const change = await changeRequested(member.cookie, `kept-hash-${Date.now()}@example.org`);
    const stored = await db().selectFrom("verification").select("identifier").where("value", "like", `${member.id} %`).execute();
    expect(stored).toEqual([{ identifier: `change-email:${createHash("sha256").update(change).digest("base64url")}` }]);
  });

  it("tells the old address what changed, when, and whom to write to if it was not the member", async () => {
    const member = await joined();
    const newAddress = `notice-${Date.now()}@example.org`;
    const change = await changeRequested(member.cookie, newAddress);
    expect(await db().selectFrom("mail_outbox").select("id").where("kind", "=", "email-changed").where("to_address", "=", member.email).execute()).toHaveLength(
      0,
    );

    expect((await web.http.post("/settings/email", { token: change }, { cookie: member.cookie })).status).toBe(302);
    const notice = await mailTo(member.email, "email-changed");
    expect(notice.subject).toBe("Your email address was changed");
    const year = String(new Date().getUTCFullYear());
    for (const body of [notice.text_body, notice.html_body]) {
      expect(body).toContain(`Hello ${member.name},`);
      expect(body).toContain("was changed to n…@example.org on");
      expect(body).toContain(year);
      expect(body).toContain("password reset links sent to this address no longer work");
      expect(body).toContain(`If this was not you, write to us at ${CONTACT_EMAIL}`);
      // Only a hint of the new address reaches the old mailbox.
      expect(body).not.toContain(newAddress);
    }
    // Nothing goes to the old address for a link that changes nothing.
    expect((await web.http.post("/settings/email", { token: change }, { cookie: member.cookie })).status).toBe(404);
    expect(await db().selectFrom("mail_outbox").select("id").where("kind", "=", "email-changed").where("to_address", "=", member.email).execute()).toHaveLength(
      1,
    );
  });
});
