import { betterAuth, type BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import * as z from "zod/mini";
import type { Db, Engine } from "./db/connect";
import { deleteResetTokens } from "./domain/accounts/member-repository";
import { consumeSignInLink } from "./domain/accounts/sign-in-trust-repository";
import { endSignInTrust } from "./domain/accounts/trusted-devices";
import { signInTrustHash } from "./domain/accounts/tokens";

/** Thirty days for 'Remember me' (PRODUCT.md §2); Better Auth gives other sign-ins one day. */
export const REMEMBERED_SESSION_SECONDS = 60 * 60 * 24 * 30;

/** PRODUCT.md §5: a reset link is valid for one hour and works once. */
export const RESET_LINK_SECONDS = 60 * 60;

export interface AuthOptions {
  db: Db;
  engine: Engine;
  secret: string;
  baseURL: string;
  /** Mails the reset link; the token goes into our own /reset-password page's URL. */
  sendResetPassword?: (to: { email: string; name: string }, token: string) => Promise<void>;
}

/**
 * Better Auth over our own Kysely instance and tables (ADR 0004). Its HTTP handler is not mounted:
 * every account flow goes through our route actions, which validate with the seed's schemas, apply
 * our own rate limits and origin checks, then call `auth.api`.
 */
/** Better Auth names its cookies "ipos.session_token" and so on ("__Secure-" before them on https). */
export const AUTH_COOKIE_PREFIX = "ipos";

/**
 * `auth.api.signInWithLink`: uses up a mailed sign-in link and opens a session for its member, with
 * Better Auth's own session row and cookie (ADR 0042). Server-only: it is on no HTTP route, and it
 * signs no one in without an unused, unexpired link. Better Auth's magic-link plugin is not used:
 * for a member whose address is unverified (all of ours) it deletes the password and the sessions.
 */
function signInLinks(db: Db) {
  return {
    id: "sign-in-link",
    endpoints: {
      signInWithLink: createAuthEndpoint(
        { method: "POST", body: z.object({ token: z.string() }), requireHeaders: true, metadata: { SERVER_ONLY: true } },
        async (ctx) => {
          const memberId = await consumeSignInLink(db, signInTrustHash(ctx.body.token), new Date().toISOString());
          const user = memberId ? await ctx.context.internalAdapter.findUserById(memberId) : null;
          if (!user) throw APIError.fromStatus("BAD_REQUEST");
          const session = await ctx.context.internalAdapter.createSession(user.id, false);
          await setSessionCookie(ctx, { session, user }, false);
          return ctx.json({ memberId: user.id });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}

export function createAuth({ db, engine, secret, baseURL, sendResetPassword }: AuthOptions) {
  return betterAuth({
    appName: "Inner Peace. Outer Strength.",
    secret,
    baseURL,
    database: { db, type: engine, transaction: true },
    telemetry: { enabled: false },
    // Our actions apply the limits of PRODUCT.md §7 themselves (server-side calls skip Better Auth's).
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      sendResetPassword: async ({ user, token }) => {
        await sendResetPassword?.({ email: user.email, name: user.name }, token);
      },
      // A reset ends every other reset link of the member too, not only the one used, and the
      // trust of their devices and sign-in links (ADR 0042). A password change does the same.
      onPasswordReset: async ({ user }) => {
        await deleteResetTokens(db, user.id);
        await endSignInTrust(db, user.id);
      },
    },
    session: {
      expiresIn: REMEMBERED_SESSION_SECONDS,
      updateAge: 60 * 60 * 24,
      fields: {
        userId: "member_id",
        expiresAt: "expires_at",
        ipAddress: "ip_address",
        userAgent: "user_agent",
        createdAt: "created_at",
        updatedAt: "updated_at",
      },
    },
    user: {
      modelName: "member",
      fields: { emailVerified: "email_verified", createdAt: "created_at", updatedAt: "updated_at" },
      additionalFields: {
        handle: { type: "string", required: true, input: true },
        bio: { type: "string", required: false, input: true },
        interests: { type: "string", required: false, input: true, defaultValue: "[]" },
        role: { type: "string", required: false, input: false, defaultValue: "member" },
        // The browser's IANA zone at join (issue 11); settings change it through our own repository.
        timeZone: { type: "string", fieldName: "time_zone", required: false, input: true, defaultValue: "UTC" },
        // Read with the session's member row, so the rank-up check on every page costs no query of
        // its own (ADR 0027); the XP ledger's transaction writes `rank`, the check `seen_rank`.
        rank: { type: "string", required: false, input: false, defaultValue: "initiate" },
        seenRank: { type: "string", fieldName: "seen_rank", required: false, input: false },
        // The picture's base name (ADR 0072), for the header; only the settings' upload sets it.
        avatar: { type: "string", required: false, input: false },
      },
    },
    account: {
      fields: {
        accountId: "account_id",
        providerId: "provider_id",
        userId: "member_id",
        accessToken: "access_token",
        refreshToken: "refresh_token",
        idToken: "id_token",
        accessTokenExpiresAt: "access_token_expires_at",
        refreshTokenExpiresAt: "refresh_token_expires_at",
        createdAt: "created_at",
        updatedAt: "updated_at",
      },
    },
    verification: {
      fields: { expiresAt: "expires_at", createdAt: "created_at", updatedAt: "updated_at" },
    },
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      useSecureCookies: baseURL.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    plugins: [signInLinks(db)],
    logger: { disabled: true },
  });
}

export type Auth = ReturnType<typeof createAuth>;
