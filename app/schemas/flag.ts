import * as z from "zod/mini";

import { FLAG_NOTE_MAX, FLAG_REASON_NAMES } from "~/lib/flags";

/** A flag as the flag form sends it (issue 31): a reason, and a note that "Something else" needs. */
export const flagSchema = z
  .object({
    reason: z.enum(FLAG_REASON_NAMES as [string, ...string[]], "Choose why you flag this post"),
    note: z.string().check(z.trim(), z.maxLength(FLAG_NOTE_MAX, `Keep the note under ${FLAG_NOTE_MAX} characters`)),
  })
  .check(z.refine((v) => v.reason !== "other" || v.note !== "", { message: "Say what is wrong in the note", path: ["note"] }));
export type FlagValues = z.infer<typeof flagSchema>;
