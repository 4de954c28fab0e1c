import type { Db } from "../../db/connect";
import type { MemberRole } from "../../db/schema";

export const ROLES: MemberRole[] = ["member", "moderator", "admin"];

/** Sets a member's role by email; returns false when no member has that address. */
export async function setRole(db: Db, email: string, role: MemberRole): Promise<boolean> {
  const result = await db
    .updateTable("member")
    .set({ role, updated_at: new Date().toISOString() })
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
