import { BELL_MAX } from "~/lib/notifications";
import { engineOf } from "../../db/connect";
import type { Executor } from "../../db/executor";
import type { MemberRole } from "~/lib/domain-values";

export async function findMemberIdByEmail(db: Executor, email: string) {
  const row = await db.selectFrom("member").select("id").where("email", "=", email.toLowerCase()).executeTakeFirst();
  return row?.id ?? null;
}

export async function handleTaken(db: Executor, handle: string) {
  const row = await db.selectFrom("member").select("id").where("handle", "=", handle).executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes every outstanding password-reset link of a member. Better Auth keeps one verification
 * row per link (identifier `reset-password:<token>`, value = member id) and consumes only the link
 * that was used; the others must die with the old password (issue 7, item 6).
 */
export async function deleteResetTokens(db: Executor, memberId: string) {
  await db.deleteFrom("verification").where("identifier", "like", "reset-password:%").where("value", "=", memberId).execute();
}

/** Sets the role of the member with this (normalised) address; false when there is none. */
export async function updateRoleByEmail(db: Executor, email: string, role: MemberRole, at: string) {
  const result = await db.updateTable("member").set({ role, updated_at: at }).where("email", "=", email).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A living member's public profile row; deleted accounts have no profile (ADR 0023). */
export async function findProfileByHandle(db: Executor, handle: string) {
  return db
    .selectFrom("member")
    .select(["id", "name", "handle", "bio", "interests", "avatar", "created_at"])
    .where("handle", "=", handle)
    .where("handle", "not like", "deleted-%")
    .executeTakeFirst();
}

/** What the settings page edits, and shows back. */
export async function findSettings(db: Executor, memberId: string) {
  return db
    .selectFrom("member")
    .select(["id", "name", "email", "handle", "bio", "interests", "time_zone", "avatar"])
    .where("id", "=", memberId)
    .executeTakeFirst();
}

/**
 * The base name of the member's picture (issue 32), read in the transaction that replaces or
 * removes it and locked until it ends (PostgreSQL's `for update`; SQLite's writers are serial
 * already), so two changes at once each delete the files the other one left, never the same twice.
 */
export async function findAvatarForChange(db: Executor, memberId: string) {
  let query = db.selectFrom("member").select("avatar").where("id", "=", memberId);
  if (engineOf(db) === "postgres") query = query.forUpdate();
  return (await query.executeTakeFirst())?.avatar ?? null;
}

export async function updateAvatar(db: Executor, memberId: string, avatar: string | null, at: string) {
  await db.updateTable("member").set({ avatar, updated_at: at }).where("id", "=", memberId).execute();
}

export interface ProfileChange {
  name: string;
  bio: string | null;
  interests: string[];
  timeZone: string;
}

export async function updateProfile(db: Executor, memberId: string, change: ProfileChange, at: string) {
  await db
    .updateTable("member")
    .set({
      name: change.name,
      bio: change.bio,
      interests: JSON.stringify(change.interests),
      time_zone: change.timeZone,
      updated_at: at,
    })
    .where("id", "=", memberId)
    .execute();
}

/**
 * Ends every session of a member (a deleted account), or every one but the session with the token
 * `except` (a changed email address, confirmed while signed in).
 */
export async function deleteSessions(db: Executor, memberId: string, except?: string) {
  let query = db.deleteFrom("session").where("member_id", "=", memberId);
  if (except !== undefined) query = query.where("token", "!=", except);
  await query.execute();
}

// An email change waits in Better Auth's verification table until its link is followed (ADR 0023):
// identifier "change-email:<sha-256 of the token>" (the link itself is never stored), value
// "<member id> <new address>".
const EMAIL_CHANGE = "change-email:";

export async function insertEmailChange(db: Executor, tokenHash: string, memberId: string, email: string, expiresAt: string, at: string) {
  await db
    .insertInto("verification")
    .values({
      id: crypto.randomUUID(),
      identifier: `${EMAIL_CHANGE}${tokenHash}`,
      value: `${memberId} ${email}`,
      expires_at: expiresAt,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

function parseEmailChange(row: { value: string; expires_at: string | Date } | undefined) {
  if (!row) return null;
  const [memberId, email] = row.value.split(" ");
  return memberId && email ? { memberId, email, expiresAt: new Date(row.expires_at) } : null;
}

export async function findEmailChange(db: Executor, tokenHash: string) {
  const row = await db.selectFrom("verification").select(["value", "expires_at"]).where("identifier", "=", `${EMAIL_CHANGE}${tokenHash}`).executeTakeFirst();
  return parseEmailChange(row);
}

/** Takes the pending change out of the table: of two requests with one link, only one gets it. */
export async function consumeEmailChange(db: Executor, tokenHash: string) {
  const row = await db.deleteFrom("verification").where("identifier", "=", `${EMAIL_CHANGE}${tokenHash}`).returning(["value", "expires_at"]).executeTakeFirst();
  return parseEmailChange(row);
}

/** Every pending email change of a member: a newer request, a done change or a deleted account ends them. */
export async function deleteEmailChanges(db: Executor, memberId: string) {
  await db.deleteFrom("verification").where("identifier", "like", `${EMAIL_CHANGE}%`).where("value", "like", `${memberId} %`).execute();
}

export async function updateEmail(db: Executor, memberId: string, email: string, at: string) {
  await db.updateTable("member").set({ email, email_verified: true, updated_at: at }).where("id", "=", memberId).execute();
}

/**
 * What a deleted account keeps (ADR 0023): its id, so posts, votes and XP rows stay consistent, under
 * a name, address and handle that say nothing about the person. The address is unique and can never
 * receive mail (.invalid, RFC 2606).
 */
export async function anonymiseMember(db: Executor, memberId: string, placeholder: { name: string; handle: string; email: string }, at: string) {
  await db
    .updateTable("member")
    .set({
      name: placeholder.name,
      handle: placeholder.handle,
      email: placeholder.email,
      email_verified: false,
      image: null,
      bio: null,
      interests: "[]",
      time_zone: "UTC",
      role: "member",
      updated_at: at,
    })
    .where("id", "=", memberId)
    .execute();
}

/** Sign-in methods and every verification row of the member (reset links, email changes). */
export async function deleteCredentials(db: Executor, memberId: string) {
  await db.deleteFrom("account").where("member_id", "=", memberId).execute();
  await deleteResetTokens(db, memberId);
  await deleteEmailChanges(db, memberId);
}

/**
 * The session with this token and its member, in one statement (the session fast path of
 * loadViewer, ADR 0032); undefined when there is no such session.
 */
export async function findSessionMember(db: Executor, token: string) {
  return (
    db
      .selectFrom("session")
      .innerJoin("member", "member.id", "session.member_id")
      .select([
        "session.expires_at",
        "member.id",
        "member.name",
        "member.email",
        "member.handle",
        "member.role",
        "member.rank",
        "member.seen_rank",
        "member.xp",
        "member.avatar",
      ])
      // The bell's count (issue 28), counted up to one past what it shows: an index range, never the whole list.
      .select((eb) =>
        eb
          .selectFrom((inner) =>
            inner
              .selectFrom("notification")
              .select("notification.id")
              .whereRef("notification.member_id", "=", "member.id")
              .where("notification.read_at", "is", null)
              .limit(BELL_MAX + 1)
              .as("unread_rows"),
          )
          .select((c) => c.fn.countAll<number>().as("n"))
          .as("unread"),
      )
      .where("session.token", "=", token)
      .executeTakeFirst()
  );
}

/** The member's time zone (their calendar days, ADR 0022); UTC when the member is gone. */
export async function memberTimeZone(db: Executor, memberId: string): Promise<string> {
  const row = await db.selectFrom("member").select("time_zone").where("id", "=", memberId).executeTakeFirst();
  return row?.time_zone ?? "UTC";
}

/** Whether the member is an advisor (has an advisor row). */
export async function isAdvisor(db: Executor, memberId: string): Promise<boolean> {
  const row = await db.selectFrom("advisor").select("member_id").where("member_id", "=", memberId).executeTakeFirst();
  return row !== undefined;
}
