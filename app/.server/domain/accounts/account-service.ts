import { APIError } from "better-auth/api";
import type { AppServices, Viewer } from "../../context";
import type { JoinValues, SignInValues } from "~/schemas/account";
import type { FieldErrors } from "~/schemas/form-data";
import { slugify } from "~/lib/slug";
import { findMemberIdByEmail, handleTaken } from "./member-repository";
import { tryAgainMessage } from "../../rate-limit";

export const EMAIL_TAKEN = "An account with this email already exists";
export const INVALID_CREDENTIALS = "Invalid email or password";

/** PRODUCT.md §7: 10 failed sign-ins per 15 minutes per address and per IP. */
export const SIGN_IN_LIMIT = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

export type ServiceResult =
  | { ok: true; headers: Headers }
  | { ok: false; status: 400 | 429; errors: FieldErrors };

export type JoinResult = { ok: true; headers: Headers; viewer: Viewer } | { ok: false; status: 400 | 429; errors: FieldErrors };

async function uniqueHandle(services: AppServices, name: string): Promise<string> {
  const base = slugify(name, 30);
  for (let n = 1; n < 50; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await handleTaken(services.db, candidate))) return candidate;
  }
  return `${base}-${crypto.randomUUID().slice(0, 8)}`;
}

/** Creates the account and signs the new member in; the returned headers carry the session cookie. */
export async function registerMember(
  services: AppServices,
  values: JoinValues,
  requestHeaders: Headers,
): Promise<JoinResult> {
  const email = values.email.toLowerCase();
  if (await findMemberIdByEmail(services.db, email)) {
    return { ok: false, status: 400, errors: { email: EMAIL_TAKEN } };
  }
  const interests = Object.entries(values.interests ?? {})
    .filter(([, chosen]) => chosen)
    .map(([id]) => id);
  try {
    const handle = await uniqueHandle(services, values.fullName);
    const { headers, response } = await services.auth.api.signUpEmail({
      body: {
        name: values.fullName,
        email,
        password: values.password,
        handle,
        bio: values.bio ? values.bio : undefined,
        interests: JSON.stringify(interests),
      },
      headers: requestHeaders,
      returnHeaders: true,
    });
    const user = response.user;
    return { ok: true, headers, viewer: { id: user.id, name: user.name, email: user.email, handle, role: "member" } };
  } catch (error) {
    // Two joins with one address at the same moment: the unique index lets one through.
    if (error instanceof APIError && error.status === "UNPROCESSABLE_ENTITY") {
      return { ok: false, status: 400, errors: { email: EMAIL_TAKEN } };
    }
    if (await findMemberIdByEmail(services.db, email)) {
      return { ok: false, status: 400, errors: { email: EMAIL_TAKEN } };
    }
    throw error;
  }
}

function limitKeys(email: string, ip: string) {
  return [`email:${email.toLowerCase()}`, `ip:${ip}`];
}

/** Minutes until the oldest counted failure leaves the window, if any key is at its limit. */
export async function signInBlockedForMinutes(services: AppServices, email: string, ip: string, now = new Date()) {
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS).toISOString();
  const rows = await services.db
    .selectFrom("sign_in_failure")
    .select(["key", (eb) => eb.fn.countAll<number>().as("failures"), (eb) => eb.fn.min("failed_at").as("oldest")])
    .where("key", "in", limitKeys(email, ip))
    .where("failed_at", ">", since)
    .groupBy("key")
    .execute();
  let minutes = 0;
  for (const row of rows) {
    if (Number(row.failures) < SIGN_IN_LIMIT) continue;
    const oldest = new Date(row.oldest as string | Date).getTime();
    const waitMs = oldest + SIGN_IN_WINDOW_MS - now.getTime();
    minutes = Math.max(minutes, Math.max(1, Math.ceil(waitMs / 60_000)));
  }
  return minutes;
}


async function recordFailure(services: AppServices, email: string, ip: string, now = new Date()) {
  const failedAt = now.toISOString();
  const keys = limitKeys(email, ip);
  await services.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("sign_in_failure")
      .where("key", "in", keys)
      .where("failed_at", "<=", new Date(now.getTime() - SIGN_IN_WINDOW_MS).toISOString())
      .execute();
    await trx
      .insertInto("sign_in_failure")
      .values(keys.map((key) => ({ key, failed_at: failedAt })))
      .execute();
  });
}

export async function signInMember(
  services: AppServices,
  values: SignInValues,
  request: { headers: Headers; ip: string },
): Promise<ServiceResult> {
  const email = values.email.toLowerCase();
  const blocked = await signInBlockedForMinutes(services, email, request.ip);
  if (blocked > 0) return { ok: false, status: 429, errors: { form: tryAgainMessage(blocked) } };
  try {
    const { headers } = await services.auth.api.signInEmail({
      body: { email, password: values.password, rememberMe: values.rememberMe },
      headers: request.headers,
      returnHeaders: true,
    });
    await services.db.deleteFrom("sign_in_failure").where("key", "=", `email:${email}`).execute();
    return { ok: true, headers };
  } catch (error) {
    if (error instanceof APIError && (error.status === "UNAUTHORIZED" || error.status === "BAD_REQUEST")) {
      await recordFailure(services, email, request.ip);
      return { ok: false, status: 400, errors: { form: INVALID_CREDENTIALS } };
    }
    throw error;
  }
}

export async function signOutMember(services: AppServices, requestHeaders: Headers): Promise<Headers> {
  const { headers } = await services.auth.api.signOut({ headers: requestHeaders, returnHeaders: true });
  return headers;
}
