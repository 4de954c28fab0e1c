import type { Db } from "../../db/connect";
import {
  deleteSignInTrust,
  deleteTrustedDevicesBeyond,
  deleteUnusedTrustedDevices,
  findTrustedDeviceFor,
  findTrustedDeviceMember,
  insertTrustedDevice,
  touchTrustedDevice,
} from "./sign-in-trust-repository";
import { newToken, signInTrustHash } from "./tokens";

/**
 * A browser that signed in successfully keeps this cookie for a year; its sign-in attempts then count
 * against its own limit, not its address's, so wrong passwords sent from anywhere else cannot lock
 * the owner out (issue 25, item 9; ADR 0042). Signing out keeps it.
 */
export const DEVICE_COOKIE = "ipos_device";
export const DEVICE_COOKIE_SECONDS = 60 * 60 * 24 * 365;
/**
 * The devices a member keeps trusted: the most recently used ones. A browser that clears its
 * cookies signs in as a new device every time, so without a bound the rows would only grow.
 */
export const TRUSTED_DEVICES_PER_MEMBER = 20;

/** 32 random bytes in base64url: 43 characters; anything else is refused before any query. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The device token the request carries, if it has the shape of one. */
export function deviceTokenOf(headers: Headers): string | null {
  const cookie = headers.get("cookie") ?? "";
  const match = cookie.match(new RegExp(`(?:^|;\\s*)${DEVICE_COOKIE}=([^;]*)`));
  const token = match?.[1]?.trim();
  return token && TOKEN_SHAPE.test(token) ? token : null;
}

export function deviceCookie(token: string, secure: boolean) {
  return `${DEVICE_COOKIE}=${token}; Path=/; Max-Age=${DEVICE_COOKIE_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * The hash of the request's device token when that device is trusted for the member who has this
 * address; null for no cookie, a forged or forgotten one, or another member's device.
 */
export async function trustedDeviceFor(db: Db, headers: Headers, email: string): Promise<string | null> {
  const token = deviceTokenOf(headers);
  if (!token) return null;
  const tokenHash = signInTrustHash(token);
  return (await findTrustedDeviceFor(db, tokenHash, email)) ? tokenHash : null;
}

/**
 * After a successful sign-in: the browser's device cookie, kept (and its year started again) when it
 * is already this member's, else a new one, which ends the trust of the member's least recently
 * used device beyond TRUSTED_DEVICES_PER_MEMBER. Returns the Set-Cookie header value.
 */
export async function trustDevice(db: Db, memberId: string, headers: Headers, secure: boolean, now = new Date()) {
  const at = now.toISOString();
  const current = deviceTokenOf(headers);
  if (current && (await findTrustedDeviceMember(db, signInTrustHash(current))) === memberId) {
    await touchTrustedDevice(db, signInTrustHash(current), at);
    return deviceCookie(current, secure);
  }
  const token = newToken();
  const tokenHash = signInTrustHash(token);
  // Two sign-ins of one member from new browsers at the same moment may prune the same old device
  // and leave a row over the bound, until the next sign-in prunes again: a bound, not an exact count.
  await db.transaction().execute(async (trx) => {
    await deleteUnusedTrustedDevices(trx, memberId, new Date(now.getTime() - DEVICE_COOKIE_SECONDS * 1000).toISOString());
    await insertTrustedDevice(trx, tokenHash, memberId, at);
    await deleteTrustedDevicesBeyond(trx, memberId, tokenHash, TRUSTED_DEVICES_PER_MEMBER);
  });
  return deviceCookie(token, secure);
}

/** After a password reset or change: no device is trusted any more, and no mailed link works. */
export async function endSignInTrust(db: Db, memberId: string) {
  await db.transaction().execute((trx) => deleteSignInTrust(trx, memberId));
}
