import type { Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { MemberRole } from "~/lib/domain-values";
import { updateRoleByEmail } from "./member-repository";

export const ROLES: MemberRole[] = ["member", "moderator", "admin"];

/** The one moderator check: moderators and admins hide, restore, lock and feature, and see hidden posts. */
export const isModerator = (viewer: Pick<Viewer, "role"> | null | undefined) => viewer?.role === "moderator" || viewer?.role === "admin";

/** Sets a member's role by email; returns false when no member has that address. */
export async function setRole(db: Db, email: string, role: MemberRole): Promise<boolean> {
  return updateRoleByEmail(db, email.trim().toLowerCase(), role, new Date().toISOString());
}
