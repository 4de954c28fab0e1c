import type { QueuedMail } from "../../mail/outbox";
import { renderMail } from "../../mail/templates/layout";
import { formatInZone } from "~/lib/time-zones";

/**
 * The mails an event causes: a place that opened from the waitlist, a change, a cancellation and
 * the reminder a day before. Each has a text and an HTML part, both from the shared mail layout
 * (it was a bare HTML fragment, issue 26 item 8); the outbox sends them (ADR 0024).
 */

export interface MailEvent {
  id: number;
  title: string;
  starts_at: string | Date;
  time_zone: string;
  online_url: string | null;
  place: string | null;
}

export interface MailMember {
  name: string;
  email: string;
  /** The member's own zone; the event's zone is shown beside it. */
  time_zone?: string;
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const CONTROL_CHARS = /[\u0000-\u001f\u007f]+/g;

/** A subject is one header line: CR, LF and other control characters would start a new header. */
export function subjectLine(text: string): string {
  return text.replace(CONTROL_CHARS, " ").replace(/\s+/g, " ").trim().slice(0, 200);
}

export const eventUrl = (baseUrl: string, id: number) => `${baseUrl}/events/${id}`;

function when(event: MailEvent, member: MailMember): string {
  const start = new Date(event.starts_at);
  const own = formatInZone(start, member.time_zone ?? event.time_zone);
  const theirs = formatInZone(start, event.time_zone);
  return own === theirs ? own : `${own} (${theirs} where it is held)`;
}

function where(event: MailEvent): string {
  return [event.place, event.online_url].filter(Boolean).join(" · ");
}

function compose(kind: string, baseUrl: string, event: MailEvent, member: MailMember, subject: string, lead: string, dedupeKey?: string): QueuedMail {
  const url = eventUrl(baseUrl, event.id);
  const title = subjectLine(event.title);
  // React escapes the member's and the host's text in the HTML part.
  const mail = renderMail({
    subject: subjectLine(subject),
    greeting: `Hello ${member.name},`,
    intro: [lead, title, `When: ${when(event, member)}`, `Where: ${where(event)}`],
    action: { label: "Details and calendar file", url },
  });
  return { ...mail, to: member.email, kind, ...(dedupeKey ? { dedupeKey } : {}) };
}

export const promotedMail = (baseUrl: string, event: MailEvent, member: MailMember) =>
  compose(
    "event-promoted",
    baseUrl,
    event,
    member,
    `A place opened: you are going to ${event.title}`,
    "A place opened up and you have moved up from the waitlist. You are going.",
  );

export const changedMail = (baseUrl: string, event: MailEvent, member: MailMember) =>
  compose(
    "event-changed",
    baseUrl,
    event,
    member,
    `Event updated: ${event.title}`,
    "The host has changed the details of an event you are going to. Here is what it looks like now.",
  );

export const cancelledMail = (baseUrl: string, event: MailEvent, member: MailMember) =>
  compose(
    "event-cancelled",
    baseUrl,
    event,
    member,
    `Event cancelled: ${event.title}`,
    "The host has cancelled an event you were going to. We are sorry for the change of plans.",
  );

export const reminderKey = (eventId: number, memberId: string) => `event-reminder:${eventId}:${memberId}`;

export const reminderMail = (baseUrl: string, event: MailEvent, member: MailMember & { id: string }) =>
  compose(
    "event-reminder",
    baseUrl,
    event,
    member,
    `Tomorrow: ${event.title}`,
    "A reminder: an event you are going to starts within a day.",
    reminderKey(event.id, member.id),
  );
