import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import type { Executor } from "../../db/executor";
import type { Timestamp } from "../../db/schema";
import { fail, type Outcome } from "../outcome";
import {
  BELL_MAX,
  alwaysTold,
  NOTIFICATION_KINDS,
  NOTIFICATION_SETTING_NAMES,
  type NotificationKind,
  type NotificationSetting,
  type WatchLevel,
} from "~/lib/notifications";
import {
  countUnread,
  deleteNotification,
  deleteNotificationsAbout,
  lastReadOfGroup,
  takeOneFromGroupLine,
  unreadGroupLine,
  isMuting,
  mutedMembers,
  setMute,
  watchLevelOf,
  insertNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  silencesOf,
  notificationSettingsOf,
  saveNotificationSetting,
  setWatchLevel,
  unreadCounts,
  upsertGroupedNotification,
  type NotificationRow,
} from "./notification-repository";

/**
 * Members are told (issue 28). A notice is written in the same transaction as what causes it (a
 * reply, a vote, a hide), filtered there by the recipient's own choices: never to oneself, nothing
 * from a member they muted, nothing of a kind they turned off, nothing from a discussion, question
 * or topic they muted. After the commit the bells of those told ring (`ringBells`).
 */
export interface Notice {
  memberId: string;
  kind: NotificationKind;
  /** What it opens, "<kind>:<id>" ("reply:12"). */
  subject: string;
  /** The post whose hiding or deletion also takes it away ("discussion:5"), if any. */
  parent: string | null;
  title: string;
  url: string;
  /** Subjects whose muting silences it (the discussion and its topic). */
  quietIf?: readonly string[];
  /** Gathers with the member's unread line of the same key (likes of one creation). */
  group?: string;
}

/**
 * Writes the notices inside the caller's transaction; returns the members who got a line. One
 * notice per member: the first given wins (a mention before a plain reply).
 */
export async function notify(trx: Executor, actorId: string | null, notices: readonly Notice[], now: Date): Promise<string[]> {
  const first = new Map<string, Notice>();
  for (const notice of notices) if (notice.memberId !== actorId && !first.has(notice.memberId)) first.set(notice.memberId, notice);
  if (first.size === 0) return [];
  const members = [...first.keys()];
  const { muting, quiet, off } = await silencesOf(trx, members, {
    actorId,
    subjects: [...new Set([...first.values()].flatMap((n) => n.quietIf ?? []))],
    settings: [...new Set([...first.values()].map((n) => NOTIFICATION_KINDS[n.kind].setting))],
  });
  const at = now.toISOString();
  const plain: NotificationRow[] = [];
  const told: string[] = [];
  for (const notice of first.values()) {
    const { memberId } = notice;
    const silenceable = !alwaysTold(notice.kind);
    if (silenceable && (muting.has(memberId) || off.get(NOTIFICATION_KINDS[notice.kind].setting)?.has(memberId))) continue;
    if (silenceable && notice.quietIf?.some((subject) => quiet.get(memberId)?.has(subject))) continue;
    const row: NotificationRow = {
      member_id: memberId,
      kind: notice.kind,
      actor_id: actorId,
      subject: notice.subject,
      parent: notice.parent,
      title: notice.title,
      url: notice.url,
      group_key: notice.group ?? null,
      at,
    };
    if (notice.group) await upsertGroupedNotification(trx, { ...row, group_key: notice.group });
    else plain.push(row);
    told.push(memberId);
  }
  await insertNotifications(trx, plain);
  return told;
}

/**
 * A like or helpful vote taken back (`group` as `notify` was given it): the member's unread line of
 * the group stops counting it, so liking and unliking again and again never reads "Amara and 3
 * others". Only what was done since the member last read a line of the group is counted in the
 * unread one. A line that counted no one else goes; one named after whoever took theirs back is
 * named after `nextActor` (the latest of the others still standing, since `lastRead`). Returns whose
 * bell changed.
 */
export async function withdrawFromGroup(
  trx: Executor,
  input: { memberId: string; group: string; actorId: string; actedAt: Timestamp; nextActor: (since: string | null) => Promise<string | null> },
): Promise<string[]> {
  const line = await unreadGroupLine(trx, input.memberId, input.group);
  if (!line) return [];
  const lastRead = await lastReadOfGroup(trx, input.memberId, input.group);
  if (lastRead !== null && new Date(input.actedAt).getTime() <= new Date(lastRead).getTime()) return [];
  const named = line.actor_id === input.actorId;
  if (Number(line.others) === 0) {
    if (!named) return [];
    await deleteNotification(trx, line.id);
    return [input.memberId];
  }
  const next = named ? await input.nextActor(lastRead) : null;
  if (named && next === null) await deleteNotification(trx, line.id);
  else await takeOneFromGroupLine(trx, line.id, next);
  return [input.memberId];
}

/** A post hidden or deleted takes its notifications (and those of what is under it) away; whose bells to ring. */
export function forgetNotificationsAbout(trx: Executor, keys: string[]) {
  return deleteNotificationsAbout(trx, keys);
}

/** After the commit: each told member's bell shows their new count, on every page they have open. */
export async function ringBells(services: AppServices, memberIds: readonly string[]) {
  if (memberIds.length === 0) return;
  const counts = await unreadCounts(services.db, [...new Set(memberIds)]);
  for (const [memberId, unread] of counts) services.live.publish(`member:${memberId}`, { type: "bell", unread });
}

/** The bell's count, up to one past what it shows ("99+"). */
export function unreadCount(db: Executor, memberId: string) {
  return countUnread(db, memberId, BELL_MAX + 1);
}

// ---------------------------------------------------------------- the member's list

export const NOTIFICATIONS_PAGE = 30;

/** A keyset cursor "<at ms>.<id>"; anything else (or out of range) is no cursor at all. */
export function parseNotificationCursor(value: string | null): { at: string; id: number } | null | "invalid" {
  if (value === null || value === "") return null;
  const match = /^(\d{1,15})\.(\d{1,10})$/.exec(value);
  if (!match) return "invalid";
  const ms = Number(match[1]);
  const id = Number(match[2]);
  if (!Number.isSafeInteger(ms) || id < 1 || id > 2_147_483_647 || ms > 8_640_000_000_000_000) return "invalid";
  return { at: new Date(ms).toISOString(), id };
}

export async function notificationsPage(db: Db, viewer: Viewer, cursor: { at: string; id: number } | null) {
  const rows = await listNotifications(db, viewer.id, cursor, NOTIFICATIONS_PAGE + 1);
  const shown = rows.slice(0, NOTIFICATIONS_PAGE);
  const last = shown.at(-1);
  const unread = await unreadCount(db, viewer.id);
  return {
    unread,
    items: shown.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      actor: r.actor_name === null ? null : { name: r.actor_name, handle: r.actor_handle, avatar: r.actor_avatar },
      others: Number(r.others),
      title: r.title,
      at: new Date(r.at).toISOString(),
      read: r.read_at !== null,
    })),
    next: rows.length > NOTIFICATIONS_PAGE && last ? `${new Date(last.at).getTime()}.${last.id}` : null,
  };
}

/** Opening one: it is marked read and its place is where the member goes; another member's is a 404. */
export async function openNotification(services: AppServices, viewer: Viewer, id: number, now = new Date()): Promise<Outcome<string>> {
  const url = await services.db.transaction().execute((trx) => markNotificationRead(trx, viewer.id, id, now.toISOString()));
  if (url === undefined) return fail(404, "Notification not found");
  await ringBells(services, [viewer.id]);
  return { ok: true, value: url };
}

export async function markAllRead(services: AppServices, viewer: Viewer, now = new Date()) {
  const marked = await markAllNotificationsRead(services.db, viewer.id, now.toISOString());
  await ringBells(services, [viewer.id]);
  return marked;
}

// ---------------------------------------------------------------- settings and watching

export async function notificationSettings(db: Db, memberId: string) {
  const saved = await notificationSettingsOf(db, memberId);
  return NOTIFICATION_SETTING_NAMES.map((kind) => ({ kind, inSite: saved.get(kind)?.inSite ?? true, byMail: saved.get(kind)?.byMail ?? true }));
}

export async function saveNotificationSettings(
  services: AppServices,
  viewer: Viewer,
  settings: ReadonlyArray<{ kind: NotificationSetting; inSite: boolean; byMail: boolean }>,
) {
  await services.db.transaction().execute(async (trx) => {
    for (const setting of settings) await saveNotificationSetting(trx, viewer.id, setting.kind, setting);
  });
}

/** The member's level for a discussion, question or topic, from its page's control. */
export async function setWatching(services: AppServices, viewer: Viewer, subject: string, level: WatchLevel, now = new Date()) {
  await setWatchLevel(services.db, viewer.id, subject, level, now.toISOString());
}

/** The member's level for a subject as its page's control shows it: what they chose, else normal. */
export async function watchLevelFor(db: Executor, viewer: Viewer | null, subject: string): Promise<WatchLevel | null> {
  if (!viewer) return null;
  return (await watchLevelOf(db, viewer.id, subject)) ?? "normal";
}

/** Muting a member: nothing of theirs notifies the viewer, and their mentions of the viewer are dropped. */
export async function setMemberMuted(services: AppServices, viewer: Viewer, memberId: string, muted: boolean, now = new Date()): Promise<Outcome<null>> {
  if (memberId === viewer.id) return fail(400, "You cannot mute yourself.");
  await setMute(services.db, viewer.id, memberId, muted, now.toISOString());
  return { ok: true, value: null };
}

/** The members the viewer muted, for the settings page. */
export function membersMutedBy(db: Executor, viewer: Viewer) {
  return mutedMembers(db, viewer.id);
}

/** Whether the viewer muted this member (their profile's button). */
export async function viewerMutes(db: Executor, viewer: Viewer | null, memberId: string) {
  return viewer !== null && viewer.id !== memberId && (await isMuting(db, viewer.id, memberId));
}
