import { diffWords } from "diff";

/**
 * The words an edit removed and added (issue 32), as markup: the text escaped, removals in `<del>`,
 * additions in `<ins>`. Made once, when the edit is written (it depends only on the two texts).
 * Bounded: past MAX_EDITS changed words, or TIMEOUT_MS of work, the diff gives up and the whole old
 * text reads as removed and the new one as added, which is what such an edit is anyway.
 */
const MAX_EDITS = 4000;
const TIMEOUT_MS = 50;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export function wordDiffHtml(before: string, after: string): string {
  const changes = diffWords(before, after, { maxEditLength: MAX_EDITS, timeout: TIMEOUT_MS }) ?? [
    { value: before, added: false, removed: true },
    { value: after, added: true, removed: false },
  ];
  return changes
    .filter((c) => c.value !== "")
    .map((c) => (c.added ? `<ins>${escape(c.value)}</ins>` : c.removed ? `<del>${escape(c.value)}</del>` : escape(c.value)))
    .join("");
}
