import { tag, wrote } from "../../cache/page-tags";
import type { AppServices, Viewer } from "../../context";
import type { Executor } from "../../db/executor";
import { notify, ringBells } from "../notifications/notification-service";
import { fail, type Outcome } from "../outcome";
import { isModerator } from "./roles";
import { formatDate } from "~/lib/dates";
import { profilePath } from "~/lib/members";

/**
 * Silencing (issue 31): a moderator makes a member read-only for a period, with a reason the member
 * sees. Until then every write others would see is refused with the reason and the end date: new
 * posts and edits of every kind, reactions and likes, flags, helpful votes, new topics. What is the
 * member's alone (bookmarks, settings, check-ins, RSVPs, their notifications) stays theirs to change.
 */
export const SILENCE_DAYS_MAX = 365;
export const SILENCE_REASON_MAX = 500;
export const SILENCE_MESSAGES = {
  notMember: "Moderators cannot be silenced.",
  days: `Choose from 1 to ${SILENCE_DAYS_MAX} days`,
  reason: "Say why, in a few words the member will read",
  missing: "Member not found",
};

const ONLY_MODERATORS = "Only moderators can do that.";

export function silencedMessage(until: string | Date, reason: string | null) {
  return `You are silenced until ${formatDate(until)}${reason ? ` (${reason})` : ""}. You can read, but not post, react or flag until then.`;
}

/** The refusal for a silenced member, or ok; one primary-key read. */
export async function speakAllowed(db: Executor, viewer: Viewer, now = new Date()): Promise<Outcome<null>> {
  const row = await db.selectFrom("member").select(["silenced_until", "silence_reason"]).where("id", "=", viewer.id).executeTakeFirst();
  if (!row?.silenced_until || new Date(row.silenced_until).getTime() <= now.getTime()) return { ok: true, value: null };
  return fail(403, silencedMessage(row.silenced_until, row.silence_reason));
}

/** What a member's profile says of their silence to moderators: until when and why, or null. */
export async function silenceOf(db: Executor, memberId: string, now = new Date()) {
  const row = await db.selectFrom("member").select(["silenced_until", "silence_reason"]).where("id", "=", memberId).executeTakeFirst();
  if (!row?.silenced_until || new Date(row.silenced_until).getTime() <= now.getTime()) return null;
  return { until: new Date(row.silenced_until).toISOString(), reason: row.silence_reason ?? "" };
}

export async function silenceMember(
  services: AppServices,
  viewer: Viewer,
  memberId: string,
  input: { days: number; reason: string },
  now = new Date(),
): Promise<Outcome<{ until: string }>> {
  if (!isModerator(viewer)) return fail(403, ONLY_MODERATORS);
  const reason = input.reason.trim();
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > SILENCE_DAYS_MAX) return fail(400, SILENCE_MESSAGES.days, "days");
  if (reason === "" || reason.length > SILENCE_REASON_MAX) return fail(400, SILENCE_MESSAGES.reason, "reason");
  const member = await services.db.selectFrom("member").select(["id", "role", "handle"]).where("id", "=", memberId).executeTakeFirst();
  if (!member) return fail(404, SILENCE_MESSAGES.missing);
  if (isModerator(member)) return fail(403, SILENCE_MESSAGES.notMember);
  const until = new Date(now.getTime() + input.days * 24 * 60 * 60 * 1000).toISOString();
  wrote(tag.profile(memberId));
  const told = await services.db.transaction().execute(async (trx) => {
    await trx.updateTable("member").set({ silenced_until: until, silence_reason: reason }).where("id", "=", memberId).execute();
    return notify(
      trx,
      viewer.id,
      [
        {
          memberId,
          kind: "moderation.silenced",
          subject: `silence:${memberId}:${until}`,
          parent: null,
          title: `${formatDate(until)} (${reason})`,
          url: profilePath(member.handle) ?? "/dashboard",
        },
      ],
      now,
    );
  });
  await ringBells(services, told);
  return { ok: true, value: { until } };
}

export async function liftSilence(services: AppServices, viewer: Viewer, memberId: string): Promise<Outcome<null>> {
  if (!isModerator(viewer)) return fail(403, ONLY_MODERATORS);
  wrote(tag.profile(memberId));
  const done = await services.db.updateTable("member").set({ silenced_until: null, silence_reason: null }).where("id", "=", memberId).executeTakeFirst();
  return Number(done.numUpdatedRows) > 0 ? { ok: true, value: null } : fail(404, SILENCE_MESSAGES.missing);
}

/** The reason of a silence the spam flags set on a new member, lifted when a moderator clears them. */
export const SPAM_SILENCE_REASON = "Your first posts were flagged as spam; a moderator will review them";
/** How long such a silence lasts at most if no moderator comes: it is meant to end at the review. */
const SPAM_SILENCE_DAYS = 30;

/** Inside the flags' transaction: the new member is silenced until a moderator reviews their posts. */
export async function silenceForReview(trx: Executor, memberId: string, now: Date) {
  const until = new Date(now.getTime() + SPAM_SILENCE_DAYS * 24 * 60 * 60 * 1000).toISOString();
  await trx.updateTable("member").set({ silenced_until: until, silence_reason: SPAM_SILENCE_REASON }).where("id", "=", memberId).execute();
}

/** A moderator cleared the member's flagged post: a silence the spam flags set goes with it. */
export async function liftSilenceForReview(trx: Executor, memberId: string) {
  await trx
    .updateTable("member")
    .set({ silenced_until: null, silence_reason: null })
    .where("id", "=", memberId)
    .where("silence_reason", "=", SPAM_SILENCE_REASON)
    .execute();
}
