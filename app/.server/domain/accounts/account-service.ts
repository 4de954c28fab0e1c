import { APIError } from "better-auth/api";
import type { AppServices, Viewer } from "../../context";
import type { JoinValues, SignInValues } from "~/schemas/account";
import type { FieldErrors } from "~/schemas/form-data";
import { slugify } from "~/lib/slug";
import { isDeletedHandle } from "~/lib/members";
import { DEFAULT_TIME_ZONE, canonicalTimeZone } from "~/lib/time-zones";
import { findMemberIdByEmail, handleTaken } from "./member-repository";
import { trustDevice, trustedDeviceFor } from "./trusted-devices";
import { wroteNothingPublic } from "../../cache/page-tags";
import { clearHits, forgetHits, hit, tryAgainMessage, type Limit } from "../../rate-limit";
import { enqueueMail } from "../../mail/outbox";
import { joinAttemptMail } from "../../mail/templates/join-attempt";
import { JOIN_ATTEMPT_MAIL_LIMIT, JOIN_LIMIT, JOIN_WINDOW_MS, SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS } from "~/lib/limits";

export const EMAIL_TAKEN = "An account with this email already exists";
export const INVALID_CREDENTIALS = "Invalid email or password";

export type ServiceResult = { ok: true; headers: Headers } | { ok: false; status: 400 | 429; errors: FieldErrors };

export type JoinResult = { ok: true; headers: Headers; viewer: Viewer } | { ok: false; status: 400 | 429; errors: FieldErrors };

/** A handle from the name; never one in the prefix that marks deleted accounts (app/lib/members.ts). */
function handleBase(name: string) {
  const base = slugify(name, 30);
  return isDeletedHandle(base) || base === "deleted" ? `member-${base}`.slice(0, 30) : base;
}

async function uniqueHandle(services: AppServices, name: string): Promise<string> {
  const base = handleBase(name);
  for (let n = 1; n < 50; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await handleTaken(services.db, candidate))) return candidate;
  }
  return `${base}-${crypto.randomUUID().slice(0, 8)}`;
}

function joinLimit(ip: string): Limit {
  return { key: `join:ip:${ip}`, max: JOIN_LIMIT, windowMs: JOIN_WINDOW_MS };
}

/**
 * Creates the account and signs the new member in; the returned headers carry the session cookie.
 * Every join attempt from an IP counts, a taken address too (it would otherwise let a script probe
 * which addresses have accounts at full speed); counted and recorded in one step (ADR 0013), before
 * the password is hashed. A form refused before it gets here counts as well (refuseJoin).
 */
export async function registerMember(services: AppServices, values: JoinValues, request: { headers: Headers; ip: string }): Promise<JoinResult> {
  const limited = await hit(services.db, [joinLimit(request.ip)]);
  if (!limited.ok) return { ok: false, status: 429, errors: { form: tryAgainMessage(limited.retryMinutes) } };
  const email = values.email.toLowerCase();
  if (await findMemberIdByEmail(services.db, email)) return tellOwner(services, email);
  const interests = Object.entries(values.interests ?? {})
    .filter(([, chosen]) => chosen)
    .map(([id]) => id);
  let handle = await uniqueHandle(services, values.fullName);
  for (let attempt = 1; ; attempt++) {
    try {
      const { headers, response } = await services.auth.api.signUpEmail({
        body: {
          name: values.fullName,
          email,
          password: values.password,
          handle,
          bio: values.bio ? values.bio : undefined,
          interests: JSON.stringify(interests),
          // A zone the browser made up is no reason to refuse a join: it stays UTC, editable later.
          timeZone: (values.timeZone && canonicalTimeZone(values.timeZone)) || DEFAULT_TIME_ZONE,
        },
        headers: request.headers,
        returnHeaders: true,
      });
      const user = response.user;
      // A new member shows nowhere until they write something: no page counts members.
      wroteNothingPublic();
      return { ok: true, headers, viewer: { id: user.id, name: user.name, email: user.email, handle, role: "member", avatar: null } };
    } catch (error) {
      // Two joins with one address at the same moment: the unique index lets one through. The
      // owner is the other join, made a moment ago (most often this one's double submit): no mail.
      if (await findMemberIdByEmail(services.db, email)) {
        return { ok: false, status: 400, errors: { email: EMAIL_TAKEN } };
      }
      // Two joins with one name at the same moment both saw the handle free; the later one takes
      // a handle of its own (a random suffix cannot collide again in practice).
      if (attempt < 3 && (await handleTaken(services.db, handle))) {
        handle = `${handleBase(values.fullName)}-${crypto.randomUUID().slice(0, 8)}`;
        continue;
      }
      // Better Auth answers 422 both for an address it found taken and for a user it failed to
      // create (any database error); only the first is the member's to fix.
      if (error instanceof APIError && (error.body as { code?: string } | undefined)?.code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL") {
        return { ok: false, status: 400, errors: { email: EMAIL_TAKEN } };
      }
      throw error;
    }
  }
}

/**
 * A join the form refused (invalid, unreadable): it counts against the IP's joins like any other
 * attempt (issue 25), so a script cannot post refused forms at full speed; past the limit the
 * answer is the 429.
 */
export async function refuseJoin(services: AppServices, errors: FieldErrors, ip: string): Promise<JoinResult> {
  const limited = await hit(services.db, [joinLimit(ip)]);
  if (!limited.ok) return { ok: false, status: 429, errors: { form: tryAgainMessage(limited.retryMinutes) } };
  return { ok: false, status: 400, errors };
}

/**
 * A join with a taken address (issue 25): the page says so, as the seed's form always has, and the
 * owner hears of it by mail, at most once an hour per address however many joins try it: the
 * once-an-hour is a limit on the address, checked and recorded in the transaction that queues the
 * mail (ADR 0013, 0025), so parallel joins queue one mail. The answer is the same either way.
 */
async function tellOwner(services: AppServices, email: string): Promise<JoinResult> {
  const base = services.env.BASE_URL;
  await services.db.transaction().execute(async (trx) => {
    const first = await hit(trx, [{ key: `join-attempt-mail:${email}`, ...JOIN_ATTEMPT_MAIL_LIMIT }]);
    if (!first.ok) return;
    const mail = joinAttemptMail({ signInUrl: `${base}/signin`, forgotPasswordUrl: `${base}/forgot-password` });
    await enqueueMail(trx, { ...mail, to: email, kind: "join-attempt" });
  });
  return { ok: false, status: 400, errors: { email: EMAIL_TAKEN } };
}

/**
 * The address's count, or the trusted device's own when the attempt comes from a browser that signed
 * in to this address's account before (ADR 0042): wrong passwords sent from anywhere else then
 * cannot lock the owner out, and the device cannot be used to guess either. The IP's always counts.
 */
function signInLimits(email: string, ip: string, deviceHash: string | null): Limit[] {
  const own = deviceHash ? `signin:device:${deviceHash}` : `signin:email:${email}`;
  return [
    { key: own, max: SIGN_IN_LIMIT, windowMs: SIGN_IN_WINDOW_MS },
    { key: `signin:ip:${ip}`, max: SIGN_IN_LIMIT, windowMs: SIGN_IN_WINDOW_MS },
  ];
}

/**
 * Every attempt first reserves a place under both limits in one atomic step (ADR 0013), so no more
 * than ten passwords per address (or trusted device) and per IP are ever checked in a window,
 * however many arrive at once. A right password hands its places back and clears the count it was
 * made under, as a success always has: only failures keep counting. A trusted device's success
 * leaves the address's count alone, or it would hand whoever fills it ten fresh guesses. Every
 * success trusts the browser from then on (its device cookie is in the returned headers).
 */
export async function signInMember(services: AppServices, values: SignInValues, request: { headers: Headers; ip: string }): Promise<ServiceResult> {
  const email = values.email.toLowerCase();
  const deviceHash = await trustedDeviceFor(services.db, request.headers, email);
  const limits = signInLimits(email, request.ip, deviceHash);
  const reserved = await hit(services.db, limits);
  if (!reserved.ok) return { ok: false, status: 429, errors: { form: tryAgainMessage(reserved.retryMinutes) } };
  try {
    const { headers, response } = await services.auth.api.signInEmail({
      body: { email, password: values.password, rememberMe: values.rememberMe },
      headers: request.headers,
      returnHeaders: true,
    });
    await services.db.transaction().execute(async (trx) => {
      await clearHits(trx, limits[0].key);
      await forgetHits(trx, reserved.hitIds);
    });
    headers.append("Set-Cookie", await trustDevice(services.db, response.user.id, request.headers, services.env.BASE_URL.startsWith("https://")));
    wroteNothingPublic();
    return { ok: true, headers };
  } catch (error) {
    if (error instanceof APIError && (error.status === "UNAUTHORIZED" || error.status === "BAD_REQUEST")) {
      return { ok: false, status: 400, errors: { form: INVALID_CREDENTIALS } };
    }
    // Our own failure is not the visitor's guess: it does not count against them.
    await forgetHits(services.db, reserved.hitIds).catch(() => {});
    throw error;
  }
}

export async function signOutMember(services: AppServices, requestHeaders: Headers): Promise<Headers> {
  wroteNothingPublic();
  const { headers } = await services.auth.api.signOut({ headers: requestHeaders, returnHeaders: true });
  return headers;
}
