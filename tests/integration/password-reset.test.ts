import { describe, expect, it } from "vitest";
import { RouterContextProvider } from "react-router";
import { registerMember, signInMember } from "~/.server/domain/accounts/account-service";
import { requestPasswordReset, resetPassword, RESET_LINK_INVALID, RESET_REQUESTED_MESSAGE } from "~/.server/domain/accounts/password-reset";
import { servicesContext } from "~/.server/context";
import { loadViewer } from "~/.server/session";
import { joinSchema } from "~/schemas/account";
import { mailText, siteWithSmtp } from "./smtp";
import { cookieHeader, ENGINE } from "./test-services";

const web = siteWithSmtp();

const headers = () => new Headers({ "user-agent": "vitest" });
/** The join form's values for a member whose password is "Secret123". */
const joinValues = (fullName: string, email: string) =>
  joinSchema.parse({ fullName, email, password: "Secret123", confirmPassword: "Secret123", termsAccepted: true });
/** Signs in with this address and password, as the sign-in form would from `ip`. */
const signIn = (email: string, password: string, ip: string) =>
  signInMember(web.site.services, { email, password, rememberMe: false }, { headers: headers(), ip });
async function viewerFor(cookie: string) {
  const context = new RouterContextProvider();
  context.set(servicesContext, web.site.services);
  return (await loadViewer(context, new Request("http://localhost:3000/", { headers: { cookie } }))).viewer;
}

describe(`password reset on ${ENGINE}, mailed through a real SMTP server`, () => {
  it("mails a one-hour, single-use link; the new password works and other sessions end", async () => {
    const values = joinValues("Reset Me", "reset@example.org");
    const joined = await registerMember(web.site.services, values, { headers: headers(), ip: "10.9.0.1" });
    if (!joined.ok) throw new Error("join failed");
    const oldSession = cookieHeader(joined.headers);

    expect(await requestPasswordReset(web.site.services, "Reset@Example.org", "10.9.0.1")).toEqual({ ok: true, message: RESET_REQUESTED_MESSAGE });
    await web.deliver();
    const mail = web.smtp.received.find((m) => m.to.includes("reset@example.org"))!;
    const token = mailText(mail.raw).match(/\/reset-password\?token=([A-Za-z0-9_-]+)/)![1];

    const row = await web.site.services.db
      .selectFrom("verification")
      .select("expires_at")
      .where("identifier", "=", `reset-password:${token}`)
      .executeTakeFirstOrThrow();
    const minutes = (new Date(row.expires_at).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);

    expect(await resetPassword(web.site.services, token, "NewSecret456")).toEqual({ ok: true });
    expect(await viewerFor(oldSession)).toBeNull();
    expect(await resetPassword(web.site.services, token, "Another789A")).toEqual({ ok: false, message: RESET_LINK_INVALID });

    expect((await signIn(values.email, "Secret123", "10.9.0.2")).ok).toBe(false);
    expect((await signIn(values.email, "NewSecret456", "10.9.0.2")).ok).toBe(true);
  });

  it("a reset with the newer link makes the older link useless", async () => {
    const values = joinValues("Two Links", "two-links@example.org");
    expect((await registerMember(web.site.services, values, { headers: headers(), ip: "10.9.3.2" })).ok).toBe(true);
    const tokens = async () =>
      web.smtp.received.filter((m) => m.to.includes(values.email)).map((m) => mailText(m.raw).match(/\/reset-password\?token=([A-Za-z0-9_-]+)/)![1]);
    await requestPasswordReset(web.site.services, values.email, "10.9.3.1");
    await requestPasswordReset(web.site.services, values.email, "10.9.3.1");
    await web.deliver();
    const [older, newer] = await tokens();
    expect(older).not.toBe(newer);

    expect(await resetPassword(web.site.services, newer, "NewSecret456")).toEqual({ ok: true });
    expect(await resetPassword(web.site.services, older, "Hijacked789")).toEqual({ ok: false, message: RESET_LINK_INVALID });
    expect((await signIn(values.email, "NewSecret456", "10.9.3.2")).ok).toBe(true);
  });

  it("answers the same for an unknown address and mails nothing", async () => {
    const before = web.smtp.received.length;
    expect(await requestPasswordReset(web.site.services, "nobody@example.org", "10.9.1.1")).toEqual({ ok: true, message: RESET_REQUESTED_MESSAGE });
    await web.deliver();
    expect(web.smtp.received.length).toBe(before);
  });

  it("limits reset requests to 3 an hour per address", async () => {
    for (let i = 0; i < 3; i++) expect((await requestPasswordReset(web.site.services, "limit@example.org", `10.9.2.${i}`)).ok).toBe(true);
    const fourth = await requestPasswordReset(web.site.services, "limit@example.org", "10.9.2.9");
    expect(fourth).toEqual({ ok: false, status: 429, message: "Too many attempts. Try again in 60 minutes." });
  });

  it("refuses an unknown token", async () => {
    expect(await resetPassword(web.site.services, "not-a-token", "NewSecret456")).toEqual({ ok: false, message: RESET_LINK_INVALID });
  });
});
