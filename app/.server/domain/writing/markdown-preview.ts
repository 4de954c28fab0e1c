import type { AppServices, Viewer } from "../../context";
import { renderMarkdown } from "../../markdown";
import { wroteNothingPublic } from "../../cache/page-tags";
import { hit, tryAgainMessage } from "../../rate-limit";
import { PREVIEW_LIMIT } from "~/lib/limits";
import { BODY_MAX } from "~/schemas/fields";
import { fail, type Outcome } from "../outcome";

export const PREVIEW_TOO_LONG = `Keep the text under ${BODY_MAX.toLocaleString("en-US")} characters`;

/**
 * A Write / Preview tab's preview (issue 32): the member's Markdown through the one renderer every
 * post goes through, so what they see is what will be posted. Never stored. Counted per member
 * (PREVIEW_LIMIT); the length is refused before anything is counted or rendered, and the renderer is
 * linear in its input (ADR 0012). Mentions render as text here: whether a handle exists is the post's
 * business, not a preview's.
 */
export async function previewMarkdown(services: AppServices, viewer: Viewer, source: string): Promise<Outcome<{ html: string }>> {
  if (source.length > BODY_MAX) return fail(400, PREVIEW_TOO_LONG, "body");
  const limited = await hit(services.db, [{ key: `preview:member:${viewer.id}`, ...PREVIEW_LIMIT }]);
  if (!limited.ok) return fail(429, tryAgainMessage(limited.retryMinutes));
  // A preview stores nothing a page shows: every kept page stays.
  wroteNothingPublic();
  return { ok: true, value: { html: renderMarkdown(source) } };
}
