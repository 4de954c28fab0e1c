import type { AppServices, Viewer } from "../../context";
import type { Db } from "../../db/connect";
import { wroteNothingPublic } from "../../cache/page-tags";
import { hit, tryAgainMessage } from "../../rate-limit";
import { toIso } from "~/lib/dates";
import { DRAFT_LABEL_MAX, DRAFT_PLACE } from "~/lib/drafts";
import { DRAFT_LIMIT } from "~/lib/limits";
import { BODY_MAX } from "~/schemas/fields";
import { fail, type Outcome } from "../outcome";
import { deleteDraft, draftsOf, findDraft, saveDraft } from "./draft-repository";

export const DRAFT_MESSAGES = {
  place: "Unknown place for a draft.",
  long: `Keep the draft under ${BODY_MAX.toLocaleString("en-US")} characters`,
  url: "A draft belongs to a page of this site.",
  member: "This draft was written by another member signed in on this browser.",
};

/** The most drafts the dashboard lists; a member writing in more places at once sees the latest. */
export const DRAFTS_SHOWN = 20;

/**
 * Keeps what a member is writing in one place (issue 32), sent by their editor every few seconds: the
 * latest text wins; an empty text removes the draft. Checked before it is counted: the place's form,
 * the length (a post's at most), the page (a path of this site). 30 saves a minute per member.
 */
export async function keepDraft(
  services: AppServices,
  viewer: Viewer,
  input: { place: string; body: string; label: string; url: string; member?: string },
  now = new Date(),
): Promise<Outcome<null>> {
  // The editor says whose text it holds: a page left open while another member signed in on the same
  // browser must not keep the first member's words under the second.
  if (input.member && input.member !== viewer.handle) return fail(409, DRAFT_MESSAGES.member);
  if (!DRAFT_PLACE.test(input.place)) return fail(400, DRAFT_MESSAGES.place, "place");
  if (input.body.length > BODY_MAX) return fail(400, DRAFT_MESSAGES.long, "body");
  if (!/^\/(?![/\\])[^\s]{0,500}$/.test(input.url)) return fail(400, DRAFT_MESSAGES.url, "url");
  const limited = await hit(services.db, [{ key: `draft:member:${viewer.id}`, ...DRAFT_LIMIT }], now);
  if (!limited.ok) return fail(429, tryAgainMessage(limited.retryMinutes));
  if (input.body.trim() === "") await deleteDraft(services.db, viewer.id, input.place);
  else
    await saveDraft(services.db, {
      memberId: viewer.id,
      place: input.place,
      body: input.body,
      label: input.label.trim().slice(0, DRAFT_LABEL_MAX) || "Draft",
      url: input.url,
      at: now.toISOString(),
    });
  // Only the member's own pages show a draft (the dashboard), and their writes drop those already
  // (ADR 0040): every other kept page stays.
  wroteNothingPublic();
  return { ok: true, value: null };
}

/** The member's draft for a place, for their editor to offer back; null when there is none. */
export async function draftFor(db: Db, viewer: Viewer, place: string) {
  if (!DRAFT_PLACE.test(place)) return null;
  const row = await findDraft(db, viewer.id, place);
  return row ? { body: row.body, updatedAt: toIso(row.updated_at) } : null;
}

/** The member's drafts for their dashboard, the latest first. */
export async function dashboardDrafts(db: Db, viewer: Viewer) {
  return (await draftsOf(db, viewer.id, DRAFTS_SHOWN)).map((d) => ({ place: d.place, label: d.label, url: d.url, updatedAt: toIso(d.updated_at) }));
}

/** A draft discarded from the dashboard or the editor. */
export async function discardDraft(db: Db, viewer: Viewer, place: string) {
  if (DRAFT_PLACE.test(place)) await deleteDraft(db, viewer.id, place);
  wroteNothingPublic();
}
