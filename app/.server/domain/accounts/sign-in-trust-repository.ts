import type { Executor } from "../../db/executor";
import { toDate } from "~/lib/dates";

// Trusted devices and mailed sign-in links, both known by the SHA-256 of their token (ADR 0042).

/** The device's member, when the device is trusted for the member who has this address. */
export async function findTrustedDeviceFor(db: Executor, tokenHash: string, email: string) {
  const row = await db
    .selectFrom("trusted_device")
    .innerJoin("member", "member.id", "trusted_device.member_id")
    .select("trusted_device.member_id")
    .where("trusted_device.token_hash", "=", tokenHash)
    .where("member.email", "=", email)
    .executeTakeFirst();
  return row?.member_id ?? null;
}

export async function findTrustedDeviceMember(db: Executor, tokenHash: string) {
  const row = await db.selectFrom("trusted_device").select("member_id").where("token_hash", "=", tokenHash).executeTakeFirst();
  return row?.member_id ?? null;
}

export async function insertTrustedDevice(db: Executor, tokenHash: string, memberId: string, at: string) {
  await db.insertInto("trusted_device").values({ token_hash: tokenHash, member_id: memberId, created_at: at, last_used_at: at }).execute();
}

export async function touchTrustedDevice(db: Executor, tokenHash: string, at: string) {
  await db.updateTable("trusted_device").set({ last_used_at: at }).where("token_hash", "=", tokenHash).execute();
}

/** A device unused for longer than its cookie lives can never be presented again. */
export async function deleteUnusedTrustedDevices(db: Executor, memberId: string, before: string) {
  await db.deleteFrom("trusted_device").where("member_id", "=", memberId).where("last_used_at", "<", before).execute();
}

/**
 * Keeps the member's `keep` most recently used devices, `newest` (the one just trusted) always among
 * them: the table cannot grow without end for a member who signs in from ever new browsers.
 */
export async function deleteTrustedDevicesBeyond(db: Executor, memberId: string, newest: string, keep: number) {
  await db
    .deleteFrom("trusted_device")
    .where("member_id", "=", memberId)
    .where("token_hash", "!=", newest)
    .where("token_hash", "not in", (eb) =>
      eb
        .selectFrom("trusted_device")
        .select("token_hash")
        .where("member_id", "=", memberId)
        .where("token_hash", "!=", newest)
        .orderBy("last_used_at", "desc")
        .orderBy("token_hash")
        .limit(keep - 1),
    )
    .execute();
}

export async function insertSignInLink(db: Executor, link: { tokenHash: string; memberId: string; email: string; expiresAt: string; createdAt: string }) {
  await db
    .insertInto("sign_in_link")
    .values({ token_hash: link.tokenHash, member_id: link.memberId, email: link.email, expires_at: link.expiresAt, created_at: link.createdAt })
    .execute();
}

export async function deleteExpiredSignInLinks(db: Executor, now: string) {
  await db.deleteFrom("sign_in_link").where("expires_at", "<=", now).execute();
}

/** Whether the link is there, unexpired, and its address still the member's. Only reads. */
export async function signInLinkUsable(db: Executor, tokenHash: string, now: string) {
  const row = await db
    .selectFrom("sign_in_link")
    .innerJoin("member", (join) => join.onRef("member.id", "=", "sign_in_link.member_id").onRef("member.email", "=", "sign_in_link.email"))
    .select("sign_in_link.member_id")
    .where("sign_in_link.token_hash", "=", tokenHash)
    .where("sign_in_link.expires_at", ">", now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Uses the link up: one DELETE … RETURNING, so of any number of parallel uses exactly one gets the
 * row. Returns its member when the link was unexpired and its address is still the member's.
 */
export async function consumeSignInLink(db: Executor, tokenHash: string, now: string) {
  const link = await db.deleteFrom("sign_in_link").where("token_hash", "=", tokenHash).returning(["member_id", "email", "expires_at"]).executeTakeFirst();
  if (!link || toDate(link.expires_at).getTime() <= Date.parse(now)) return null;
  const member = await db.selectFrom("member").select("id").where("id", "=", link.member_id).where("email", "=", link.email).executeTakeFirst();
  return member?.id ?? null;
}

/** A password reset or change, or a deletion, ends the member's trusted devices and links. */
export async function deleteSignInTrust(db: Executor, memberId: string) {
  await db.deleteFrom("trusted_device").where("member_id", "=", memberId).execute();
  await db.deleteFrom("sign_in_link").where("member_id", "=", memberId).execute();
}
