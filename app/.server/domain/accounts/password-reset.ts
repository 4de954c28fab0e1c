import { APIError } from "better-auth/api";
import type { AppServices } from "../../context";
import type { QueuedMail } from "../../mail/outbox";
import { passwordResetMail } from "../../mail/templates/password-reset";
import { hit, tryAgainMessage } from "../../rate-limit";
import { wroteNothingPublic } from "../../cache/page-tags";
import { RESET_EMAIL_LIMIT, RESET_IP_LIMIT } from "~/lib/limits";

export const RESET_REQUESTED_MESSAGE =
  "If an account exists for that address, we have sent it a link to reset the password. The link works once, for one hour.";
export const RESET_LINK_INVALID = "This reset link is invalid or has expired. Ask for a new one.";

/** The reset mail Better Auth asks for, as the outbox queues it (both parts, from the template). */
export function resetPasswordMail(baseUrl: string, to: { email: string; name: string }, token: string): QueuedMail {
  const link = `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return { ...passwordResetMail(to.name, link), to: to.email, kind: "password-reset" };
}

/** Mails a reset link if the address has an account; the answer never says whether it has one. */
export async function requestPasswordReset(services: AppServices, email: string, ip: string) {
  // Links and passwords are shown nowhere.
  wroteNothingPublic();
  const address = email.trim().toLowerCase();
  const limited = await hit(services.db, [
    { key: `reset:email:${address}`, ...RESET_EMAIL_LIMIT },
    { key: `reset:ip:${ip}`, ...RESET_IP_LIMIT },
  ]);
  if (!limited.ok) return { ok: false as const, status: 429 as const, message: tryAgainMessage(limited.retryMinutes) };
  await services.auth.api.requestPasswordReset({ body: { email: address } });
  return { ok: true as const, message: RESET_REQUESTED_MESSAGE };
}

/**
 * Sets the new password; Better Auth deletes the token and ends all the member's sessions, and our
 * onPasswordReset hook (auth.ts) deletes the member's other reset links.
 */
export async function resetPassword(services: AppServices, token: string, newPassword: string) {
  wroteNothingPublic();
  try {
    await services.auth.api.resetPassword({ body: { token, newPassword } });
    return { ok: true as const };
  } catch (error) {
    if (error instanceof APIError && error.status === "BAD_REQUEST") return { ok: false as const, message: RESET_LINK_INVALID };
    throw error;
  }
}

/**
 * Whether a reset link can still be used, asked when its page opens so that a used or expired link
 * says so at once instead of after the member has typed a new password twice. Only reads: the
 * token is consumed by `resetPassword` alone, which checks it again.
 */
export async function resetLinkIsUsable(services: AppServices, token: string, now = new Date()) {
  if (!token) return false;
  const { internalAdapter } = await services.auth.$context;
  const verification = await internalAdapter.findVerificationValue(`reset-password:${token}`);
  return verification != null && new Date(verification.expiresAt) > now;
}
