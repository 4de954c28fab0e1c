import { describe, expect, it } from "vitest";
import { registerMember } from "~/.server/domain/accounts/account-service";
import { requestPasswordReset, resetLinkIsUsable, resetPassword } from "~/.server/domain/accounts/password-reset";
import { joinSchema } from "~/schemas/account";
import { mailText, siteWithSmtp } from "./smtp";
import { ENGINE } from "./test-services";

const web = siteWithSmtp();

let joins = 0;
async function mailedToken(email: string) {
  const values = joinSchema.parse({ fullName: "Link Checker", email, password: "Secret123", confirmPassword: "Secret123", termsAccepted: true });
  const joined = await registerMember(web.site.services, values, { headers: new Headers({ "user-agent": "vitest" }), ip: `10.9.4.${++joins}` });
  if (!joined.ok) throw new Error("join failed");
  await requestPasswordReset(web.site.services, email, "10.9.1.1");
  await web.deliver();
  const mail = web.smtp.received.find((m) => m.to.includes(email))!;
  return mailText(mail.raw).match(/\/reset-password\?token=([A-Za-z0-9_-]+)/)![1];
}

// Issue 8, item 7: the reset page asks this when it opens, so a used link says so at once.
describe(`a reset link's usability, checked when its page opens, on ${ENGINE}`, () => {
  it("is usable until used, and checking it does not use it up", async () => {
    const token = await mailedToken("usable@example.org");
    expect(await resetLinkIsUsable(web.site.services, token)).toBe(true);
    expect(await resetLinkIsUsable(web.site.services, token)).toBe(true);
    expect(await resetPassword(web.site.services, token, "NewSecret456")).toEqual({ ok: true });
    expect(await resetLinkIsUsable(web.site.services, token)).toBe(false);
  });

  it("is not usable once the hour is over, nor when made up or empty", async () => {
    const token = await mailedToken("expired@example.org");
    expect(await resetLinkIsUsable(web.site.services, token, new Date(Date.now() + 61 * 60 * 1000))).toBe(false);
    expect(await resetLinkIsUsable(web.site.services, "no-such-token")).toBe(false);
    expect(await resetLinkIsUsable(web.site.services, "")).toBe(false);
  });
});
