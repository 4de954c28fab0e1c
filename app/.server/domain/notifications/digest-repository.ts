import { sql } from "kysely";
import { engineOf } from "../../db/connect";
import type { Executor } from "../../db/executor";
import { DELETED_HANDLE_PREFIX } from "~/lib/members";
import { NOTIFICATION_KINDS } from "~/lib/notifications";

/**
 * The queries of the digest mail (issue 28, ADR 0058): who is due one, what it lists, the claim
 * that makes it single, and the mail settings its unsubscribe links change.
 */

/** A boolean as each engine stores it (0/1 on SQLite). */
const flag = (db: Executor, value: boolean) => (engineOf(db) === "postgres" ? value : Number(value));

/**
 * The setting a notification's kind is turned on or off by ("moderation.hidden" → "moderation"),
 * in SQL, from the one table of kinds; a kind named after its setting maps to itself.
 */
function settingOfKind() {
  const renamed = Object.entries(NOTIFICATION_KINDS).filter(([kind, spec]) => kind !== spec.setting);
  if (renamed.length === 0) return sql`n.kind`;
  return sql`case n.kind ${sql.join(
    renamed.map(([kind, spec]) => sql`when ${kind} then ${spec.setting}`),
    sql` `,
  )} else n.kind end`;
}

/**
 * A line of `notification as n` the digest mails: unread, never mailed, at least an hour old
 * (`cutoff`), not an event's (the events service mails those itself) and of a kind whose mail the
 * member left on (no setting row is on).
 */
function mailable(db: Executor, cutoff: string) {
  return sql<boolean>`(n.read_at is null and n.mailed_at is null and n.at <= ${cutoff} and n.kind not like 'event.%'
    and not exists (select 1 from notification_setting s where s.member_id = n.member_id and s.by_mail = ${flag(db, false)} and s.kind = ${settingOfKind()}))`;
}

/**
 * Living members with a mailable line whose last digest is older than `cutoff` (or none), in id
 * order, up to `limit`: one batch of the job.
 */
export async function membersDueDigest(db: Executor, cutoff: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("notification as n")
    .innerJoin("member as m", "m.id", "n.member_id")
    .select("n.member_id")
    .distinct()
    .where(mailable(db, cutoff))
    .where((eb) => eb.or([eb("m.digest_sent_at", "is", null), eb("m.digest_sent_at", "<=", cutoff)]))
    .where("m.handle", "not like", `${DELETED_HANDLE_PREFIX}%`)
    .orderBy("n.member_id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.member_id);
}

/** The member's mailable lines, oldest first, with who caused each. */
export async function mailableLines(db: Executor, memberId: string, cutoff: string) {
  return db
    .selectFrom("notification as n")
    .leftJoin("member as actor", "actor.id", "n.actor_id")
    .select(["n.id", "n.kind", "n.others", "n.title", "n.url", "n.group_key", "actor.name as actor_name"])
    .where("n.member_id", "=", memberId)
    .where(mailable(db, cutoff))
    .orderBy("n.at")
    .orderBy("n.id")
    .execute();
}

/** Whom a digest goes to. */
export async function digestRecipient(db: Executor, memberId: string) {
  return db.selectFrom("member").select(["id", "name", "email", "handle", "time_zone"]).where("id", "=", memberId).executeTakeFirst();
}

/**
 * Claims the member's digest for `at`: moves digest_sent_at only while it is still empty or older
 * than `cutoff`. The row count is the claim; a second instance (or tick) at the same time updates
 * nothing (on PostgreSQL it waits for the first's row lock, then finds the new time).
 */
export async function claimDigest(trx: Executor, memberId: string, cutoff: string, at: string): Promise<boolean> {
  const result = await trx
    .updateTable("member")
    .set({ digest_sent_at: at })
    .where("id", "=", memberId)
    .where((eb) => eb.or([eb("digest_sent_at", "is", null), eb("digest_sent_at", "<=", cutoff)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The lines a digest has dealt with: they are never mailed again. */
export async function markMailed(trx: Executor, ids: readonly number[], at: string) {
  if (ids.length === 0) return;
  await trx
    .updateTable("notification")
    .set({ mailed_at: at })
    .where("id", "in", [...ids])
    .where("mailed_at", "is", null)
    .execute();
}

/**
 * Turns mail off for these settings, leaving the rest of each as it was: a setting with no row was
 * on in the site, so a new row keeps it on there. One statement per setting, so a member's save on
 * the settings page at the same moment is never half overwritten.
 */
export async function turnMailOff(trx: Executor, memberId: string, settings: readonly string[]) {
  for (const kind of settings) {
    await trx
      .insertInto("notification_setting")
      .values({ member_id: memberId, kind, in_site: flag(trx, true), by_mail: flag(trx, false) })
      .onConflict((oc) => oc.columns(["member_id", "kind"]).doUpdateSet({ by_mail: flag(trx, false) }))
      .execute();
  }
}

/** The settings among these whose mail the member turned off. */
export async function settingsWithMailOff(db: Executor, memberId: string, settings: readonly string[]): Promise<Set<string>> {
  if (settings.length === 0) return new Set();
  const rows = await db
    .selectFrom("notification_setting")
    .select("kind")
    .where("member_id", "=", memberId)
    .where("kind", "in", [...settings])
    .where("by_mail", "=", flag(db, false))
    .execute();
  return new Set(rows.map((r) => r.kind));
}
