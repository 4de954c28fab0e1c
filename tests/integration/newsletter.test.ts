import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { confirmSubscription, RESEND_AFTER_MS, subscribe, SUBSCRIBE_MESSAGE, unsubscribe } from "~/.server/domain/newsletter/newsletter-service";
import { mailText, siteWithSmtp } from "./smtp";
import { createTestSite, deliverQueuedMail, ENGINE } from "./test-services";

const web = siteWithSmtp();

const statusOf = async (email: string) =>
  (await web.site.services.db.selectFrom("newsletter_subscription").select("status").where("email", "=", email).executeTakeFirst())?.status;

function tokenFrom(raw: string, kind: "confirm" | "unsubscribe") {
  const match = mailText(raw).match(new RegExp(`/newsletter/${kind}\\?token=([A-Za-z0-9_-]+)`));
  if (!match) throw new Error(`no ${kind} link in mail`);
  return match[1];
}

describe(`newsletter double opt-in on ${ENGINE}, through a real SMTP server`, () => {
  it("sends a confirmation mail with confirm and one-click unsubscribe links; only confirming subscribes", async () => {
    const result = await subscribe(web.site.services, "Seeker@Example.org");
    expect(result).toEqual({ ok: true, message: SUBSCRIBE_MESSAGE });
    expect(await statusOf("seeker@example.org")).toBe("pending");
    await web.deliver();

    const mail = web.smtp.received.find((m) => m.to.includes("seeker@example.org"))!;
    const headers = mail.raw.replace(/\r?\n[ \t]+/g, " "); // unfold long header lines
    expect(headers).toMatch(/^Subject: Confirm your subscription/m);
    expect(headers).toMatch(/^List-Unsubscribe: <http:\/\/localhost:3000\/newsletter\/unsubscribe\?token=/m);
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);

    expect(await confirmSubscription(web.site.services, tokenFrom(mail.raw, "confirm"))).toBe(true);
    expect(await statusOf("seeker@example.org")).toBe("confirmed");
    expect(await unsubscribe(web.site.services, tokenFrom(mail.raw, "unsubscribe"))).toBe(true);
    expect(await statusOf("seeker@example.org")).toBe("unsubscribed");
  });

  it("answers the same for a subscribed address and sends it nothing", async () => {
    await subscribe(web.site.services, "twice@example.org");
    await web.deliver();
    const mail = web.smtp.received.find((m) => m.to.includes("twice@example.org"))!;
    await confirmSubscription(web.site.services, tokenFrom(mail.raw, "confirm"));
    const before = web.smtp.received.length;
    expect(await subscribe(web.site.services, "twice@example.org")).toEqual({ ok: true, message: SUBSCRIBE_MESSAGE });
    await web.deliver();
    expect(web.smtp.received.length).toBe(before);
  });

  it("sends at most one confirmation per address in ten minutes", async () => {
    const t0 = new Date();
    await subscribe(web.site.services, "hammer@example.org", t0);
    await subscribe(web.site.services, "hammer@example.org", new Date(t0.getTime() + 60_000));
    await web.deliver(new Date(t0.getTime() + 60_000));
    expect(web.smtp.received.filter((m) => m.to.includes("hammer@example.org"))).toHaveLength(1);
    await subscribe(web.site.services, "hammer@example.org", new Date(t0.getTime() + RESEND_AFTER_MS + 1));
    await web.deliver(new Date(t0.getTime() + RESEND_AFTER_MS + 1));
    expect(web.smtp.received.filter((m) => m.to.includes("hammer@example.org"))).toHaveLength(2);
  });

  it("refuses unknown tokens", async () => {
    expect(await confirmSubscription(web.site.services, "nope")).toBe(false);
    expect(await unsubscribe(web.site.services, "nope")).toBe(false);
  });
});

describe("without SMTP_URL, mails go to the outbox as .eml files", () => {
  it("writes the confirmation mail into DATA_DIR/outbox", async () => {
    const local = await createTestSite();
    try {
      await subscribe(local.services, "outbox@example.org");
      await deliverQueuedMail(local.services);
      const outbox = path.join(local.services.env.DATA_DIR, "outbox");
      const files = fs.readdirSync(outbox).filter((f) => f.endsWith(".eml"));
      expect(files).toHaveLength(1);
      const raw = fs.readFileSync(path.join(outbox, files[0]), "utf8");
      expect(raw).toMatch(/^To: outbox@example.org/m);
      expect(mailText(raw)).toContain("/newsletter/confirm?token=");
      // Both parts, from the one template: plain text and HTML.
      expect(raw).toMatch(/^Content-Type: multipart\/alternative/m);
      expect(raw).toMatch(/^Content-Type: text\/plain/m);
      expect(raw).toMatch(/^Content-Type: text\/html/m);
      expect(mailText(raw)).toContain('<a href="http://localhost:3000/newsletter/confirm?token=');
    } finally {
      await local.destroy();
    }
  });
});
