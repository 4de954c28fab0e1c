import { randomUUID } from "node:crypto";
import type { Viewer } from "~/.server/context";
import type { Db } from "~/.server/db/connect";
import type { MemberRole } from "~/lib/domain-values";
import { findMemberIdByEmail } from "~/.server/domain/accounts/member-repository";
import { recordXpEvent } from "~/.server/domain/progression/progression-service";

export interface MemberOverrides {
  id?: string;
  name?: string;
  email?: string;
  handle?: string;
  role?: MemberRole;
  /** XP on the ledger (one "test.grant" event), so the member holds the rank it buys. */
  xp?: number;
  createdAt?: Date;
}

let sequence = 0;
/** Told apart from other files' and other runs' members sharing one database (the browser suite). */
const run = randomUUID().slice(0, 6);

/**
 * A member row as the tests need it: no account or password (tests that sign in join through the
 * site), a role, and XP on the ledger. Every call is a new member with its own id, email and handle.
 */
export async function member(db: Db, overrides: MemberOverrides = {}): Promise<Viewer> {
  sequence += 1;
  const tag = `${run}-${sequence}`;
  const at = (overrides.createdAt ?? new Date()).toISOString();
  const viewer: Viewer = {
    id: overrides.id ?? `member-${tag}`,
    name: overrides.name ?? `Member ${sequence}`,
    email: overrides.email ?? `member-${tag}@example.org`,
    handle: overrides.handle ?? `member-${tag}`,
    role: overrides.role ?? "member",
    avatar: null,
  };
  await db
    .insertInto("member")
    .values({ ...viewer, email_verified: false, image: null, created_at: at, updated_at: at, bio: null, interests: "[]" })
    .execute();
  if (overrides.xp) await grantXp(db, viewer.id, overrides.xp, overrides.createdAt);
  return viewer;
}

/**
 * Puts points on a member's ledger, as if earned: ranks and privileges are read from the ledger's
 * sum, so this is how a test reaches a rank. Each grant is its own event (the ledger is unique per
 * member, kind and subject), so grants add up.
 */
export async function grantXp(db: Db, memberId: string, points: number, at = new Date()) {
  await recordXpEvent(db, { member_id: memberId, kind: "test.grant", subject_id: randomUUID(), points, created_at: at.toISOString() });
}

/** The id of the member with this email address (for members who joined through the site). */
export async function memberIdByEmail(db: Db, email: string): Promise<string> {
  const id = await findMemberIdByEmail(db, email);
  if (!id) throw new Error(`no member has the email address ${email}`);
  return id;
}
