import { randomBytes } from "node:crypto";
import type { AppServices } from "../../context";
import { enqueueMail } from "../../mail/outbox";
import { wroteNothingPublic } from "../../cache/page-tags";
import { newsletterConfirmMail } from "../../mail/templates/newsletter-confirm";
import {
  findSubscriptionByEmail,
  findSubscriptionByToken,
  insertPendingSubscription,
  markConfirmed,
  markPending,
  markUnsubscribed,
} from "./newsletter-repository";

/** Shown whatever the address's state, so the form never tells who is subscribed. */
export const SUBSCRIBE_MESSAGE = "Thank you! Check your inbox for a link to confirm your subscription.";
/** A confirm or unsubscribe link whose token matches no subscription (replaced, or mistyped). */
export const INVALID_LINK_MESSAGE = "This link is not valid. It may have been replaced by a newer one.";
/** A pending address gets at most one confirmation mail in this time, so the form cannot spam it. */
export const RESEND_AFTER_MS = 10 * 60 * 1000;

const newToken = () => randomBytes(24).toString("base64url");

export function confirmUrl(baseUrl: string, token: string) {
  return `${baseUrl}/newsletter/confirm?token=${encodeURIComponent(token)}`;
}
export function unsubscribeUrl(baseUrl: string, token: string) {
  return `${baseUrl}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

/**
 * Double opt-in (PRODUCT.md §2): a new or returning address becomes pending and gets a
 * confirmation mail; only confirmed addresses receive the newsletter. The mail is queued in the
 * same transaction (ADR 0025): an SMTP outage delays it, never loses it, so the answer is always
 * the same.
 */
export async function subscribe(services: AppServices, rawEmail: string, now = new Date()) {
  // Who subscribes is shown nowhere.
  wroteNothingPublic();
  const email = rawEmail.trim().toLowerCase();
  const base = services.env.BASE_URL;
  await services.db.transaction().execute(async (trx) => {
    const existing = await findSubscriptionByEmail(trx, email);
    let token: string;
    if (!existing) {
      token = newToken();
      if (!(await insertPendingSubscription(trx, email, token, now.toISOString()))) return;
    } else {
      if (existing.status === "confirmed") return;
      const lastSent = existing.confirmation_sent_at ? new Date(existing.confirmation_sent_at).getTime() : 0;
      if (existing.status === "pending" && now.getTime() - lastSent < RESEND_AFTER_MS) return;
      token = existing.status === "unsubscribed" ? newToken() : existing.token;
      await markPending(trx, existing.id, token, now.toISOString());
    }
    const unsubscribe = unsubscribeUrl(base, token);
    await enqueueMail(
      trx,
      {
        ...newsletterConfirmMail({ confirmUrl: confirmUrl(base, token), unsubscribeUrl: unsubscribe }),
        to: email,
        kind: "newsletter-confirm",
        headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      },
      now,
    );
  });
  return { ok: true as const, message: SUBSCRIBE_MESSAGE };
}

/**
 * A subscription refused before `subscribe` (a bad address, past the hourly limit) changed nothing
 * an anonymous page shows. Said for the page cache: a refusal answered with a redirect back to the
 * form is a success to it, and a success that names nothing drops every page.
 */
export function refuseSubscription() {
  wroteNothingPublic();
}

export async function findSubscription(services: AppServices, token: string) {
  if (!token || token.length > 100) return undefined;
  return findSubscriptionByToken(services.db, token);
}

export async function confirmSubscription(services: AppServices, token: string, now = new Date()) {
  wroteNothingPublic();
  return markConfirmed(services.db, token, now.toISOString());
}

export async function unsubscribe(services: AppServices, token: string, now = new Date()) {
  wroteNothingPublic();
  return markUnsubscribed(services.db, token, now.toISOString());
}
