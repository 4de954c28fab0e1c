import * as z from "zod/mini";

import { BOOKMARK_NOTE_MAX } from "~/lib/limits";

/**
 * A bookmark's note and reminder, as /bookmarks edits them (issue 30). The reminder is a day on the
 * member's own calendar (9:00 there), or empty for none.
 */
export const bookmarkSchema = z.object({
  note: z.string().check(z.trim(), z.maxLength(BOOKMARK_NOTE_MAX, `Keep the note to ${BOOKMARK_NOTE_MAX} characters`)),
  remindOn: z.string().check(z.trim(), z.regex(/^(\d{4}-\d{2}-\d{2})?$/, "Choose a day for the reminder")),
});
export type BookmarkValues = z.infer<typeof bookmarkSchema>;
