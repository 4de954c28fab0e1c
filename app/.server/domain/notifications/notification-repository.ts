import { sql, type SelectQueryBuilder } from "kysely";
import type { Database } from "../../db/schema";
import { engineOf } from "../../db/connect";
import { blocksEitherWay } from "../blocks/block-repository";
import type { Executor } from "../../db/executor";
import type { WatchLevel } from "~/lib/notifications";

/** A notification as it is stored; `subject` and `parent` are "<kind>:<id>" (see the migration). */
export interface NotificationRow {
  member_id: string;
  kind: string;
  actor_id: string | null;
  subject: string;
  parent: string | null;
  title: string;
  url: string;
  group_key: string | null;
  at: string;
}

/** New lines, one per row. */
export async function insertNotifications(trx: Executor, rows: NotificationRow[]) {
  if (rows.length === 0) return;
  await trx.insertInto("notification").values(rows).execute();
}

/**
 * A line that gathers (likes of one creation): the member's unread line of the same group moves to
 * the top with the newest actor and one more "other"; without one, a new line. One statement, so 50
 * likes at once make one line with 49 others, never two lines.
 */
export async function upsertGroupedNotification(trx: Executor, row: NotificationRow & { group_key: string }) {
  await trx
    .insertInto("notification")
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(["member_id", "group_key"])
        .where("read_at", "is", null)
        .doUpdateSet({
          others: sql<number>`notification.others + 1`,
          actor_id: (eb) => eb.ref("excluded.actor_id"),
          title: (eb) => eb.ref("excluded.title"),
          at: (eb) => eb.ref("excluded.at"),
          mailed_at: null,
        }),
    )
    .execute();
}

/**
 * The member's unread line of a group, if any, locked on PostgreSQL for the caller's transaction:
 * two likes taken back at once are counted off one after the other (SQLite writers are serial).
 */
export async function unreadGroupLine(trx: Executor, memberId: string, group: string) {
  return trx
    .selectFrom("notification")
    .select(["id", "actor_id", "others"])
    .where("member_id", "=", memberId)
    .where("group_key", "=", group)
    .where("read_at", "is", null)
    .$if(engineOf(trx) === "postgres", (q) => q.forUpdate())
    .executeTakeFirst();
}

/** When the member last read a line of this group: what happened before it went into a line they read. */
export async function lastReadOfGroup(db: Executor, memberId: string, group: string): Promise<string | null> {
  const row = await db
    .selectFrom("notification")
    .select((eb) => eb.fn.max("read_at").as("at"))
    .where("member_id", "=", memberId)
    .where("group_key", "=", group)
    .where("read_at", "is not", null)
    .executeTakeFirst();
  return row?.at ? new Date(row.at).toISOString() : null;
}

/** One fewer on a grouped line, named after `actorId` from now on (the same one when null). */
export async function takeOneFromGroupLine(trx: Executor, id: number, actorId: string | null) {
  await trx
    .updateTable("notification")
    .set((eb) => ({ others: eb("others", "-", 1), ...(actorId ? { actor_id: actorId } : {}) }))
    .where("id", "=", id)
    .where("others", ">", 0)
    .execute();
}

export async function deleteNotification(trx: Executor, id: number) {
  await trx.deleteFrom("notification").where("id", "=", id).execute();
}

/** Why some of the members about to be told may not be: who silenced the actor, which subjects they muted, which kinds they turned off. */
export interface Silences {
  /** Members who muted the actor, or are blocked by or blocking them (issue 31). */
  muting: Set<string>;
  /** Of the subjects asked about, those each member muted (a discussion, its topic). */
  quiet: Map<string, Set<string>>;
  /** Of the settings asked about, the members who turned each off in the site. */
  off: Map<string, Set<string>>;
}

interface SilenceRow {
  member_id: string;
  why: string;
  detail: string | null;
}

/**
 * What silences a notice for each of these members, in one statement: inside a reply's transaction
 * the four reads were four round trips, each a turn of a busy event loop on PostgreSQL (issue 29).
 */
export async function silencesOf(
  db: Executor,
  memberIds: readonly string[],
  { actorId, subjects, settings }: { actorId: string | null; subjects: readonly string[]; settings: readonly string[] },
): Promise<Silences> {
  const found: Silences = { muting: new Set(), quiet: new Map(), off: new Map(settings.map((setting) => [setting, new Set<string>()])) };
  const others = [...new Set(memberIds)].filter((id) => id !== actorId);
  if (others.length === 0) return found;
  const none = sql<string | null>`cast(null as text)`;
  // Each part reads its own table; the union only needs their rows to agree.
  const part = (query: { $castTo<_T>(): unknown }) => query.$castTo<SilenceRow>() as SelectQueryBuilder<Database, keyof Database, SilenceRow>;
  const parts = [
    ...(actorId
      ? [
          db
            .selectFrom("member_mute")
            .select(["member_id", sql<string>`'mute'`.as("why"), none.as("detail")])
            .where("muted_id", "=", actorId)
            .where("member_id", "in", others),
          // A block either way silences the actor for the member too (issue 31).
          blocksEitherWay(db, actorId, others).select([
            (eb) => eb.case().when("member_id", "=", actorId).then(eb.ref("blocked_id")).else(eb.ref("member_id")).end().as("member_id"),
            sql<string>`'block'`.as("why"),
            none.as("detail"),
          ]),
        ]
      : []),
    ...(subjects.length > 0
      ? [
          db
            .selectFrom("watch")
            .select(["member_id", sql<string>`'quiet'`.as("why"), "subject as detail"])
            .where("level", "=", "muted")
            .where("subject", "in", subjects)
            .where("member_id", "in", others),
        ]
      : []),
    ...(settings.length > 0
      ? [
          db
            .selectFrom("notification_setting")
            .select(["member_id", sql<string>`'off'`.as("why"), "kind as detail"])
            .where("kind", "in", settings)
            .where("member_id", "in", others)
            .where("in_site", "=", flag(db, false)),
        ]
      : []),
  ].map(part);
  if (parts.length === 0) return found;
  const rows = await parts
    .slice(1)
    .reduce((query, part) => query.unionAll(part), parts[0]!)
    .execute();
  for (const row of rows) {
    if (row.why === "mute" || row.why === "block") found.muting.add(row.member_id);
    else if (row.why === "quiet") found.quiet.set(row.member_id, (found.quiet.get(row.member_id) ?? new Set()).add(row.detail!));
    else found.off.get(row.detail!)?.add(row.member_id);
  }
  return found;
}

/** The members watching a subject. */
export async function watchersOf(db: Executor, subject: string): Promise<string[]> {
  const rows = await db.selectFrom("watch").select("member_id").where("subject", "=", subject).where("level", "=", "watching").execute();
  return rows.map((r) => r.member_id);
}

/** Watching what one starts or replies to, unless one already chose a level for it. */
export async function watchUnlessChosen(trx: Executor, memberId: string, subject: string, at: string) {
  await trx
    .insertInto("watch")
    .values({ member_id: memberId, subject, level: "watching", updated_at: at })
    .onConflict((oc) => oc.columns(["member_id", "subject"]).doNothing())
    .execute();
}

export async function setWatchLevel(trx: Executor, memberId: string, subject: string, level: WatchLevel, at: string) {
  await trx
    .insertInto("watch")
    .values({ member_id: memberId, subject, level, updated_at: at })
    .onConflict((oc) => oc.columns(["member_id", "subject"]).doUpdateSet({ level, updated_at: at }))
    .execute();
}

export async function watchLevelOf(db: Executor, memberId: string, subject: string): Promise<WatchLevel | undefined> {
  const row = await db.selectFrom("watch").select("level").where("member_id", "=", memberId).where("subject", "=", subject).executeTakeFirst();
  return row?.level;
}

export async function deleteWatch(trx: Executor, memberId: string, subject: string) {
  await trx.deleteFrom("watch").where("member_id", "=", memberId).where("subject", "=", subject).execute();
}

/** The member's unread count, counted up to `cap` (the bell shows "99+" beyond): an index range, never the whole list. */
export async function countUnread(db: Executor, memberId: string, cap: number): Promise<number> {
  const row = await db
    .selectFrom((eb) => eb.selectFrom("notification").select("id").where("member_id", "=", memberId).where("read_at", "is", null).limit(cap).as("unread"))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of the member's notifications, newest first, after the keyset cursor (at, id). */
export async function listNotifications(db: Executor, memberId: string, after: { at: string; id: number } | null, limit: number) {
  let query = db
    .selectFrom("notification")
    .leftJoin("member as actor", "actor.id", "notification.actor_id")
    .select([
      "notification.id",
      "notification.kind",
      "notification.others",
      "notification.title",
      "notification.url",
      "notification.at",
      "notification.read_at",
      "actor.name as actor_name",
      "actor.handle as actor_handle",
      "actor.avatar as actor_avatar",
    ])
    .where("notification.member_id", "=", memberId);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb("notification.at", "<", after.at), eb.and([eb("notification.at", "=", after.at), eb("notification.id", "<", after.id)])]),
    );
  }
  return query.orderBy("notification.at", "desc").orderBy("notification.id", "desc").limit(limit).execute();
}

/** Marks one of the member's notifications read; its address, or undefined when it is not theirs. */
export async function markNotificationRead(trx: Executor, memberId: string, id: number, at: string) {
  const row = await trx.selectFrom("notification").select(["url", "read_at"]).where("id", "=", id).where("member_id", "=", memberId).executeTakeFirst();
  if (!row) return undefined;
  if (row.read_at === null) await trx.updateTable("notification").set({ read_at: at }).where("id", "=", id).where("read_at", "is", null).execute();
  return row.url;
}

export async function markAllNotificationsRead(trx: Executor, memberId: string, at: string) {
  const result = await trx.updateTable("notification").set({ read_at: at }).where("member_id", "=", memberId).where("read_at", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * A post hidden or deleted takes its notifications with it, and those of what is under it (a
 * discussion's replies): the members who had one unread, to ring their bells again.
 */
export async function deleteNotificationsAbout(trx: Executor, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const gone = await trx
    .deleteFrom("notification")
    .where((eb) => eb.or([eb("subject", "in", keys), eb("parent", "in", keys)]))
    .returning(["member_id", "read_at"])
    .execute();
  return [...new Set(gone.filter((r) => r.read_at === null).map((r) => r.member_id))];
}

/** A deleted member's notifications, both theirs and those they caused, leave with them. */
export async function deleteMemberNotifications(trx: Executor, memberId: string): Promise<string[]> {
  const gone = await trx
    .deleteFrom("notification")
    .where((eb) => eb.or([eb("member_id", "=", memberId), eb("actor_id", "=", memberId)]))
    .returning(["member_id", "read_at"])
    .execute();
  await trx.deleteFrom("watch").where("member_id", "=", memberId).execute();
  await trx
    .deleteFrom("member_mute")
    .where((eb) => eb.or([eb("member_id", "=", memberId), eb("muted_id", "=", memberId)]))
    .execute();
  await trx.deleteFrom("notification_setting").where("member_id", "=", memberId).execute();
  await trx.deleteFrom("read_marker").where("member_id", "=", memberId).execute();
  return [...new Set(gone.filter((r) => r.read_at === null && r.member_id !== memberId).map((r) => r.member_id))];
}

/** Unread counts of several members at once (the bells to ring after a write), each up to `cap`. */
export async function unreadCounts(db: Executor, memberIds: string[]): Promise<Map<string, number>> {
  const counts = new Map(memberIds.map((id) => [id, 0]));
  if (memberIds.length === 0) return counts;
  const rows = await db
    .selectFrom("notification")
    .select(["member_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("member_id", "in", memberIds)
    .where("read_at", "is", null)
    .groupBy("member_id")
    .execute();
  for (const row of rows) counts.set(row.member_id, Number(row.n));
  return counts;
}

/** Members muted by this member, with their names. */
export async function mutedMembers(db: Executor, memberId: string) {
  return db
    .selectFrom("member_mute")
    .innerJoin("member", "member.id", "member_mute.muted_id")
    .select(["member.id", "member.name", "member.handle"])
    .where("member_mute.member_id", "=", memberId)
    .orderBy("member.name")
    .execute();
}

export async function isMuting(db: Executor, memberId: string, mutedId: string) {
  const row = await db.selectFrom("member_mute").select("muted_id").where("member_id", "=", memberId).where("muted_id", "=", mutedId).executeTakeFirst();
  return row !== undefined;
}

export async function setMute(trx: Executor, memberId: string, mutedId: string, muted: boolean, at: string) {
  if (muted)
    await trx
      .insertInto("member_mute")
      .values({ member_id: memberId, muted_id: mutedId, created_at: at })
      .onConflict((oc) => oc.columns(["member_id", "muted_id"]).doNothing())
      .execute();
  else await trx.deleteFrom("member_mute").where("member_id", "=", memberId).where("muted_id", "=", mutedId).execute();
}

/** The member's settings that differ from "on": kind → in the site, by mail. */
export async function notificationSettingsOf(db: Executor, memberId: string) {
  const rows = await db.selectFrom("notification_setting").select(["kind", "in_site", "by_mail"]).where("member_id", "=", memberId).execute();
  return new Map(rows.map((r) => [r.kind, { inSite: Boolean(r.in_site), byMail: Boolean(r.by_mail) }]));
}

export async function saveNotificationSetting(trx: Executor, memberId: string, kind: string, value: { inSite: boolean; byMail: boolean }) {
  const flags = { in_site: flag(trx, value.inSite), by_mail: flag(trx, value.byMail) };
  await trx
    .insertInto("notification_setting")
    .values({ member_id: memberId, kind, ...flags })
    .onConflict((oc) => oc.columns(["member_id", "kind"]).doUpdateSet(flags))
    .execute();
}

/** Which of these handles belong to living members, with their ids (mentions). */
export async function membersByHandle(db: Executor, handles: string[]) {
  if (handles.length === 0) return [];
  return db.selectFrom("member").select(["id", "handle"]).where("handle", "in", handles).execute();
}

/** A boolean as each engine stores it (0/1 on SQLite). */
function flag(db: Executor, value: boolean) {
  return engineOf(db) === "postgres" ? value : Number(value);
}
