import { deleteMemberNotifications } from "../notifications/notification-repository";
import { ringBells } from "../notifications/notification-service";
import { randomBytes } from "node:crypto";
import { APIError } from "better-auth/api";
import type { AppServices, Viewer } from "../../context";
import { enqueueMail } from "../../mail/outbox";
import { emailChangeMail } from "../../mail/templates/email-change";
import { emailChangedMail } from "../../mail/templates/email-changed";
import { tag, wrote, wroteNothingPublic } from "../../cache/page-tags";
import { hit, tryAgainMessage } from "../../rate-limit";
import { fail, type Outcome } from "../outcome";
import { deleteSubscriptionByEmail } from "../newsletter/newsletter-repository";
import type { ChangeEmailValues, ChangePasswordValues, DeleteAccountValues, ProfileSettingsValues } from "~/schemas/settings";
import { DELETED_HANDLE_PREFIX, DELETED_MEMBER_NAME } from "~/lib/members";
import { EMAIL_CHANGE_LIMIT, PASSWORD_CHECK_LIMIT } from "~/lib/limits";
import { EMAIL_TAKEN } from "./account-service";
import {
  anonymiseMember,
  consumeEmailChange,
  deleteCredentials,
  deleteEmailChanges,
  deleteResetTokens,
  deleteSessions,
  findEmailChange,
  findMemberIdByEmail,
  findSettings,
  insertEmailChange,
  updateEmail,
  updateProfile,
} from "./member-repository";
import { deleteMailTo, deleteRateLimitKeys } from "./account-deletion-repository";
import { deleteAdvisor } from "../council/council-repository";
import { deleteSignInTrust } from "./sign-in-trust-repository";
import { endSignInTrust } from "./trusted-devices";
import { dropAvatar } from "./avatar-service";
import { emailChangeHash, newToken } from "./tokens";
import { canonicalTimeZone, DEFAULT_TIME_ZONE, formatInZone } from "~/lib/time-zones";

export const WRONG_PASSWORD = "The password is not correct";
export const EMAIL_UNCHANGED = "This is already your email address";
export const EMAIL_LINK_INVALID = "This link is not valid or has expired. Ask for a new one in your settings.";
/** ADR 0023: a link to confirm a new address works once, for 24 hours. */
export const EMAIL_CHANGE_LINK_MS = 24 * 60 * 60 * 1000;

export async function settingsOf(services: AppServices, memberId: string) {
  const row = await findSettings(services.db, memberId);
  if (!row) return null;
  let interests: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.interests);
    if (Array.isArray(parsed)) interests = parsed.filter((i): i is string => typeof i === "string");
  } catch {
    // A malformed list shows as no interests; saving the form writes a good one.
  }
  return { name: row.name, email: row.email, handle: row.handle, bio: row.bio ?? "", interests, timeZone: row.time_zone, avatar: row.avatar };
}

/** Zones are stored by their canonical name ("europe/berlin" → "Europe/Berlin"), as the list shows them. */
export async function saveProfile(services: AppServices, viewer: Viewer, values: ProfileSettingsValues, now = new Date()) {
  const interests = Object.entries(values.interests ?? {})
    .filter(([, chosen]) => chosen)
    .map(([id]) => id);
  await updateProfile(
    services.db,
    viewer.id,
    { name: values.fullName, bio: values.bio ? values.bio : null, interests, timeZone: canonicalTimeZone(values.timeZone) ?? values.timeZone },
    now.toISOString(),
  );
  // The name shows wherever the member is an author; the bio and interests on the profile.
  wrote(tag.member(viewer.id));
}

/**
 * Every settings form that asks for the password counts its attempts per member (a stolen session
 * must not become a way to guess the password at full speed), with sign-in's numbers.
 */
async function passwordAttemptAllowed(services: AppServices, viewer: Viewer): Promise<Outcome<null>> {
  const limited = await hit(services.db, [{ key: `password-check:member:${viewer.id}`, ...PASSWORD_CHECK_LIMIT }]);
  return limited.ok ? { ok: true, value: null } : fail(429, tryAgainMessage(limited.retryMinutes));
}

async function passwordIsRight(services: AppServices, headers: Headers, password: string) {
  try {
    await services.auth.api.verifyPassword({ body: { password }, headers });
    return true;
  } catch (error) {
    if (error instanceof APIError && (error.status === "BAD_REQUEST" || error.status === "UNAUTHORIZED")) return false;
    throw error;
  }
}

/**
 * Better Auth checks the current password, stores the new hash and, with revokeOtherSessions, ends
 * every session and opens a fresh one for this browser: the returned headers carry its cookie.
 * Outstanding reset links die with the old password.
 */
export async function changePassword(services: AppServices, viewer: Viewer, values: ChangePasswordValues, requestHeaders: Headers): Promise<Outcome<Headers>> {
  // A password and an address are shown nowhere.
  wroteNothingPublic();
  const allowed = await passwordAttemptAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  try {
    const { headers } = await services.auth.api.changePassword({
      body: { currentPassword: values.currentPassword, newPassword: values.password, revokeOtherSessions: true },
      headers: requestHeaders,
      returnHeaders: true,
    });
    await deleteResetTokens(services.db, viewer.id);
    await endSignInTrust(services.db, viewer.id);
    return { ok: true, value: headers };
  } catch (error) {
    if (error instanceof APIError && error.status === "BAD_REQUEST") return fail(400, WRONG_PASSWORD, "currentPassword");
    throw error;
  }
}

export function emailChangeUrl(baseUrl: string, token: string) {
  return `${baseUrl}/settings/email?token=${encodeURIComponent(token)}`;
}

function emailChangeMailTo(baseUrl: string, to: string, name: string, token: string) {
  return { ...emailChangeMail(name, emailChangeUrl(baseUrl, token)), to, kind: "email-change" };
}

/**
 * Nothing changes yet (ADR 0023): the new address gets a link, queued in the same transaction that
 * records the pending change, and only following it moves the account. A newer request replaces
 * an older one.
 */
export async function requestEmailChange(
  services: AppServices,
  viewer: Viewer,
  values: ChangeEmailValues,
  requestHeaders: Headers,
  now = new Date(),
): Promise<Outcome<{ email: string }>> {
  wroteNothingPublic();
  const email = values.email.toLowerCase();
  if (email === viewer.email.toLowerCase()) return fail(400, EMAIL_UNCHANGED, "email");
  const allowed = await passwordAttemptAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  if (!(await passwordIsRight(services, requestHeaders, values.currentPassword))) {
    return fail(400, WRONG_PASSWORD, "currentPassword");
  }
  if (await findMemberIdByEmail(services.db, email)) return fail(400, EMAIL_TAKEN, "email");
  const mails = await hit(services.db, [{ key: `email-change:member:${viewer.id}`, ...EMAIL_CHANGE_LIMIT }], now);
  if (!mails.ok) return fail(429, tryAgainMessage(mails.retryMinutes));
  const token = newToken();
  await services.db.transaction().execute(async (trx) => {
    await deleteEmailChanges(trx, viewer.id);
    await insertEmailChange(trx, emailChangeHash(token), viewer.id, email, new Date(now.getTime() + EMAIL_CHANGE_LINK_MS).toISOString(), now.toISOString());
    await enqueueMail(trx, emailChangeMailTo(services.env.BASE_URL, email, viewer.name, token), now);
  });
  return { ok: true, value: { email } };
}

/** The pending change behind a link, for the confirm page; null when unknown or expired. */
export async function pendingEmailChange(services: AppServices, token: string, now = new Date()) {
  if (!token || token.length > 200) return null;
  const change = await findEmailChange(services.db, emailChangeHash(token));
  return change && change.expiresAt > now ? { email: change.email } : null;
}

/** The session token of the request, when it has a valid session. */
async function requestSession(services: AppServices, requestHeaders: Headers) {
  const found = await services.auth.api.getSession({ headers: requestHeaders });
  return found ? { memberId: found.session.userId, token: found.session.token } : null;
}

/**
 * Follows the link: the change is taken out of the table first, so a second use (or a parallel
 * one) finds nothing; an expired one is gone too. When the address was taken since the request,
 * nothing changes and the link is spent: the member asks again with another address.
 * The old address loses its hold on the account in the same transaction (issue 25, item 4): every
 * reset link (mailed to it), every other pending change, every session but the confirming one
 * (when it is the member's own) and every trusted device and sign-in link (ADR 0042) end, and the
 * old address is told, with whom to write to if it was not the member.
 */
export async function confirmEmailChange(
  services: AppServices,
  token: string,
  requestHeaders: Headers = new Headers(),
  now = new Date(),
): Promise<Outcome<{ email: string }>> {
  if (!token || token.length > 200) return fail(404, EMAIL_LINK_INVALID);
  wroteNothingPublic();
  const session = await requestSession(services, requestHeaders);
  try {
    return await services.db.transaction().execute(async (trx) => {
      const change = await consumeEmailChange(trx, emailChangeHash(token));
      if (!change || change.expiresAt <= now) return fail(404, EMAIL_LINK_INVALID);
      if (await findMemberIdByEmail(trx, change.email)) return fail(409, EMAIL_TAKEN);
      const before = await findSettings(trx, change.memberId);
      if (!before) return fail(404, EMAIL_LINK_INVALID);
      await updateEmail(trx, change.memberId, change.email, now.toISOString());
      // Shown on no public page, but on the member's own kept pages (ADR 0040), whichever browser
      // follows the link.
      wrote(tag.viewer(change.memberId));
      await deleteEmailChanges(trx, change.memberId);
      await deleteResetTokens(trx, change.memberId);
      await deleteSessions(trx, change.memberId, session?.memberId === change.memberId ? session.token : undefined);
      await deleteSignInTrust(trx, change.memberId);
      const when = formatInZone(now, canonicalTimeZone(before.time_zone) ?? DEFAULT_TIME_ZONE);
      await enqueueMail(trx, { ...emailChangedMail(before.name, change.email, when), to: before.email, kind: "email-changed" }, now);
      return { ok: true as const, value: { email: change.email } };
    });
  } catch (error) {
    // Two members confirming one new address at the same moment: the unique index lets one through.
    if (await findMemberIdByEmail(services.db, (await pendingEmailChange(services, token, now))?.email ?? "")) {
      return fail(409, EMAIL_TAKEN);
    }
    throw error;
  }
}

/**
 * ADR 0023: one transaction removes everything that says who the member was (name, address,
 * handle, bio, interests, picture, sessions, sign-in methods, links, newsletter subscription, queued mail,
 * rate-limit keys with the address) and keeps what they wrote, signed "[deleted member]".
 */
export async function deleteAccount(
  services: AppServices,
  viewer: Viewer,
  values: DeleteAccountValues,
  requestHeaders: Headers,
  now = new Date(),
): Promise<Outcome<null>> {
  const allowed = await passwordAttemptAllowed(services, viewer);
  if (!allowed.ok) return allowed;
  if (!(await passwordIsRight(services, requestHeaders, values.currentPassword))) {
    return fail(400, WRONG_PASSWORD, "currentPassword");
  }
  const suffix = randomBytes(9)
    .toString("base64url")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "0");
  // The name goes from every page the member wrote on, their profile and any advisor place: rare
  // enough to start every page afresh.
  wrote(tag.member(viewer.id), tag.site);
  let told: string[] = [];
  await services.db.transaction().execute(async (trx) => {
    const current = await findSettings(trx, viewer.id);
    if (!current) return;
    // Their notifications, and those they caused others, leave with them (issue 28).
    told = await deleteMemberNotifications(trx, viewer.id);
    await deleteSessions(trx, viewer.id);
    // The devices' rate-limit keys are found through the devices: before these go.
    await deleteRateLimitKeys(trx, viewer.id, current.email);
    await deleteSignInTrust(trx, viewer.id);
    await deleteCredentials(trx, viewer.id);
    await deleteSubscriptionByEmail(trx, current.email);
    await deleteMailTo(trx, current.email);
    // A deleted account is no advisor: it would otherwise be featured as "[deleted member]".
    await deleteAdvisor(trx, viewer.id);
    // Their picture shows who they were: its files go with the row's name for it.
    await dropAvatar(services, trx, viewer.id, now);
    await anonymiseMember(
      trx,
      viewer.id,
      {
        name: DELETED_MEMBER_NAME,
        handle: `${DELETED_HANDLE_PREFIX}${suffix}`,
        email: `${DELETED_HANDLE_PREFIX}${suffix}@deleted.invalid`,
      },
      now.toISOString(),
    );
  });
  await ringBells(services, told);
  return { ok: true, value: null };
}
