import type { Db } from "../../db/connect";
import type { MemberRole } from "~/lib/domain-values";

type Executor = Pick<Db, "selectFrom" | "insertInto" | "deleteFrom" | "updateTable">;

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
