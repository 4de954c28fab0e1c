import { APIError } from "better-auth/api";
import type { AppServices } from "../../context";
import { enqueueMail } from "../../mail/outbox";
import { signInLinkMail } from "../../mail/templates/sign-in-link";
import { hit, tryAgainMessage } from "../../rate-limit";
import { wroteNothingPublic } from "../../cache/page-tags";
import { deleteExpiredSignInLinks, insertSignInLink, signInLinkUsable } from "./sign-in-trust-repository";
import { trustDevice } from "./trusted-devices";
import { newToken, signInTrustHash } from "./tokens";
import { SIGN_IN_LINK_EMAIL_LIMIT, SIGN_IN_LINK_IP_LIMIT, SIGN_IN_LINK_MS } from "~/lib/limits";

// A locked address's owner signs in by a link mailed to it (issue 25, item 9; ADR 0042).

export const SIGN_IN_LINK_SENT = "If an account exists for that address, we have sent it a sign-in link. The link works once, for 15 minutes.";
export const SIGN_IN_LINK_INVALID = "This sign-in link has already been used or has expired. Ask for a new one.";

export function signInLinkUrl(baseUrl: string, token: string) {
  return `${baseUrl}/signin/link?token=${encodeURIComponent(token)}`;
}

/**
 * Mails a one-time sign-in link if the address has an account; the answer never says whether it
 * has one. The limits (one mail per address per 5 minutes, 10 an hour per IP) are checked and
 * recorded, and the link stored and its mail queued, in one transaction (ADR 0013, 0025).
 */
export async function requestSignInLink(services: AppServices, email: string, ip: string, now = new Date()) {
  // Links are shown nowhere.
  wroteNothingPublic();
  const address = email.trim().toLowerCase();
  return services.db.transaction().execute(async (trx) => {
    const limited = await hit(
      trx,
      [
        { key: `signin-link:email:${address}`, ...SIGN_IN_LINK_EMAIL_LIMIT },
        { key: `signin-link:ip:${ip}`, ...SIGN_IN_LINK_IP_LIMIT },
      ],
      now,
    );
    if (!limited.ok) return { ok: false as const, status: 429 as const, message: tryAgainMessage(limited.retryMinutes) };
    const member = await trx.selectFrom("member").select(["id", "name", "email"]).where("email", "=", address).executeTakeFirst();
    if (member) {
      const token = newToken();
      await deleteExpiredSignInLinks(trx, now.toISOString());
      await insertSignInLink(trx, {
        tokenHash: signInTrustHash(token),
        memberId: member.id,
        email: member.email,
        expiresAt: new Date(now.getTime() + SIGN_IN_LINK_MS).toISOString(),
        createdAt: now.toISOString(),
      });
      const mail = signInLinkMail(member.name, signInLinkUrl(services.env.BASE_URL, token));
      await enqueueMail(trx, { ...mail, to: member.email, kind: "sign-in-link" }, now);
    }
    return { ok: true as const, message: SIGN_IN_LINK_SENT };
  });
}

/** Whether a link can still be used, asked when its page opens. Only reads: the button uses it. */
export async function signInLinkIsUsable(services: AppServices, token: string, now = new Date()) {
  if (!token || token.length > 200) return false;
  return signInLinkUsable(services.db, signInTrustHash(token), now.toISOString());
}

/**
 * Uses the link up and signs its member in (Better Auth's session and cookie, through the
 * server-only endpoint in auth.ts); the browser is trusted from then on. A used, expired or made-up
 * link signs no one in.
 */
export async function signInWithLink(services: AppServices, token: string, headers: Headers) {
  wroteNothingPublic();
  try {
    const { headers: cookies, response } = await services.auth.api.signInWithLink({ body: { token }, headers, returnHeaders: true });
    cookies.append("Set-Cookie", await trustDevice(services.db, response.memberId, headers, services.env.BASE_URL.startsWith("https://")));
    return { ok: true as const, headers: cookies };
  } catch (error) {
    if (error instanceof APIError && error.status === "BAD_REQUEST") return { ok: false as const, message: SIGN_IN_LINK_INVALID };
    throw error;
  }
}
