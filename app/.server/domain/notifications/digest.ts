import { createHmac, timingSafeEqual } from "node:crypto";
import type { AppServices } from "../../context";
import type { Db } from "../../db/connect";
import { wroteNothingPublic } from "../../cache/page-tags";
import { enqueueMail, isMailAddress } from "../../mail/outbox";
import { atMostEvery } from "../../mail/outbox-worker";
import { notificationDigestMail } from "../../mail/templates/notification-digest";
import { isDeletedHandle } from "~/lib/members";
import {
  isNotificationKind,
  NOTIFICATION_KINDS,
  NOTIFICATION_SETTING_NAMES,
  NOTIFICATION_SETTINGS,
  notificationText,
  type NotificationSetting,
} from "~/lib/notifications";
import { staleCheckInReminders } from "./check-in-reminders";
import { claimDigest, digestRecipient, mailableLines, markMailed, membersDueDigest, settingsWithMailOff, turnMailOff } from "./digest-repository";

/**
 * Mail when away (issue 28 item 3, ADR 0058): a member who has not read a notification within the
 * hour gets one digest of what is unread, through the outbox, at most one an hour, only of the kinds
 * whose mail they left on, each kind with a link that stops its mail (signed, no sign-in needed).
 */

/**
 * An hour, twice over: a line unread this long is mailed, and a member gets at most one digest in
 * this time (issue 28).
 */
export const DIGEST_AWAY_MS = 60 * 60 * 1000;

/** Members mailed per run: a large backlog is worked through over runs. */
export const DIGEST_BATCH = 50;

/** Lines listed in one mail; the rest are counted ("…and 12 more") and wait on /notifications. */
export const DIGEST_LINES_SHOWN = 20;

/** How often the job looks: a digest a minute late is on time, and most ticks then cost nothing. */
export const DIGEST_EVERY_MS = 60 * 1000;

/** What a stop link turns off: one setting's mail, or every setting's (the List-Unsubscribe link). */
export type MailStopScope = NotificationSetting | "all";

export const INVALID_STOP_LINK_MESSAGE = "This link to stop notification mail is not valid. Choose what is mailed to you in your settings instead.";

// ---------------------------------------------------------------- the signed stop links

const STOP_PURPOSE = "notification-mail-stop";

function signature(secret: string, memberId: string, scope: MailStopScope) {
  // The purpose keeps this HMAC from matching any other the site makes with the same secret.
  return createHmac("sha256", secret).update(`${STOP_PURPOSE}\n${memberId}\n${scope}`).digest();
}

/** "<member id, base64url>.<scope>.<HMAC, base64url>": the link's only authority, so no sign-in is needed. */
export function mailStopToken(secret: string, memberId: string, scope: MailStopScope) {
  return `${Buffer.from(memberId).toString("base64url")}.${scope}.${signature(secret, memberId, scope).toString("base64url")}`;
}

export function mailStopUrl(baseUrl: string, secret: string, memberId: string, scope: MailStopScope) {
  return `${baseUrl}/notifications/unsubscribe?token=${mailStopToken(secret, memberId, scope)}`;
}

const isScope = (value: string): value is MailStopScope => value === "all" || (NOTIFICATION_SETTING_NAMES as readonly string[]).includes(value);

/** The member and scope a token names, or null for anything not signed by this site. */
export function readMailStopToken(secret: string, token: string): { memberId: string; scope: MailStopScope } | null {
  if (token.length > 300) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [encoded, scope, given] = parts as [string, string, string];
  if (!isScope(scope) || !/^[A-Za-z0-9_-]+$/.test(encoded) || !/^[A-Za-z0-9_-]{43}$/.test(given)) return null;
  const memberId = Buffer.from(encoded, "base64url").toString("utf8");
  const expected = signature(secret, memberId, scope);
  const actual = Buffer.from(given, "base64url");
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  return { memberId, scope };
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** What a stop link stops, as its page says it: "replies in discussions you watch". */
export function mailStopSubject(scope: MailStopScope) {
  return scope === "all" ? "all your notifications" : lowerFirst(NOTIFICATION_SETTINGS[scope]);
}

const settingsOf = (scope: MailStopScope): readonly NotificationSetting[] => (scope === "all" ? NOTIFICATION_SETTING_NAMES : [scope]);

/**
 * A stop link's page (GET: nothing changes, ADR 0007): whose mail and what it stops, and whether it
 * already is; null for a bad token or a member who is gone.
 */
export async function mailStopLink(services: AppServices, token: string) {
  const read = readMailStopToken(services.env.AUTH_SECRET, token);
  if (!read) return null;
  const member = await digestRecipient(services.db, read.memberId);
  if (!member || isDeletedHandle(member.handle)) return null;
  const off = await settingsWithMailOff(services.db, member.id, settingsOf(read.scope));
  return { email: member.email, subject: mailStopSubject(read.scope), stopped: off.size === settingsOf(read.scope).length };
}

/**
 * The stop link's POST (its page's button, or a mail provider's RFC 8058 one-click post): mail off
 * for the scope's settings, each setting's in-site choice kept. False for a bad token or a member
 * who is gone.
 */
export async function stopMail(services: AppServices, token: string): Promise<boolean> {
  const read = readMailStopToken(services.env.AUTH_SECRET, token);
  if (!read) return false;
  // A member's mail settings show only on their settings page, which is never kept.
  wroteNothingPublic();
  return services.db.transaction().execute(async (trx) => {
    const member = await digestRecipient(trx, read.memberId);
    if (!member || isDeletedHandle(member.handle)) return false;
    await turnMailOff(trx, member.id, settingsOf(read.scope));
    return true;
  });
}

// ---------------------------------------------------------------- the digest

interface Links {
  baseUrl: string;
  secret: string;
}

/**
 * One member's digest, in one transaction: their mailable lines (less check-in reminders no longer
 * true), the claim (digest_sent_at moved only if still empty or an hour old; a claim lost means
 * another instance mails it), the lines marked mailed and the mail queued. True when queued.
 */
async function sendDigest(db: Db, memberId: string, now: Date, links: Links): Promise<boolean> {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - DIGEST_AWAY_MS).toISOString();
  return db.transaction().execute(async (trx) => {
    const member = await digestRecipient(trx, memberId);
    if (!member || isDeletedHandle(member.handle)) return false;
    const lines = (await mailableLines(trx, memberId, cutoff)).map((line) => ({ ...line, id: Number(line.id), others: Number(line.others) }));
    const stale = await staleCheckInReminders(
      trx,
      lines.filter((line) => line.kind === "check_in"),
      member.time_zone,
      now,
    );
    const fresh = lines.filter((line) => !stale.has(line.id));
    // A reminder of a day that is done is never mailed: marked as dealt with, so it is not looked at again.
    if (fresh.length === 0) {
      await markMailed(trx, [...stale], at);
      return false;
    }
    if (!(await claimDigest(trx, memberId, cutoff, at))) return false;
    await markMailed(
      trx,
      lines.map((line) => line.id),
      at,
    );
    // Join checks addresses; one that is not one anyway gets nothing (enqueueMail would throw and
    // leave the member at the head of every batch).
    if (!isMailAddress(member.email)) return false;
    const present = new Set(fresh.map((line) => (isNotificationKind(line.kind) ? NOTIFICATION_KINDS[line.kind].setting : null)));
    const stopUrl = (scope: MailStopScope) => mailStopUrl(links.baseUrl, links.secret, member.id, scope);
    const stopAllUrl = stopUrl("all");
    const mail = notificationDigestMail({
      name: member.name,
      total: fresh.length,
      lines: fresh.slice(0, DIGEST_LINES_SHOWN).map((line) => ({
        text: notificationText({ kind: line.kind, actor: line.actor_name, others: line.others, title: line.title }),
        url: links.baseUrl + line.url,
      })),
      notificationsUrl: `${links.baseUrl}/notifications`,
      settingsUrl: `${links.baseUrl}/settings`,
      stops: NOTIFICATION_SETTING_NAMES.filter((setting) => present.has(setting)).map((setting) => ({
        label: `Stop mail about ${mailStopSubject(setting)}`,
        url: stopUrl(setting),
      })),
      stopAllUrl,
    });
    return enqueueMail(
      trx,
      {
        ...mail,
        to: member.email,
        kind: "notification-digest",
        // The hour is a second guard beside the claim: one digest per member and hour, whatever happens.
        dedupeKey: `digest:${member.id}:${at.slice(0, 13)}`,
        headers: { "List-Unsubscribe": `<${stopAllUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      },
      now,
    );
  });
}

/**
 * Queues the digests due at `now`, for up to `limit` members; returns how many were queued. Safe to
 * run on several instances at once: each member's claim is one conditional update.
 */
export async function sendDueDigests(db: Db, now: Date, links: Links, limit = DIGEST_BATCH): Promise<number> {
  const cutoff = new Date(now.getTime() - DIGEST_AWAY_MS).toISOString();
  let queued = 0;
  for (const memberId of await membersDueDigest(db, cutoff, limit)) {
    if (await sendDigest(db, memberId, now, links)) queued += 1;
  }
  return queued;
}

/** The digest as a job for the outbox worker's tick, which calls each job with (db, now). */
export const digestJob = (baseUrl: string, secret: string) => atMostEvery(DIGEST_EVERY_MS, (db, now) => sendDueDigests(db, now, { baseUrl, secret }));
