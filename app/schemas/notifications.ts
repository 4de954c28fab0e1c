import * as z from "zod/mini";
import { WATCH_LEVELS, type WatchLevel } from "~/lib/notifications";

/** A discussion, question or topic page's "Notifications" control (issue 28): one of the watching levels. */
export const watchSchema = z.object({
  level: z.enum(Object.keys(WATCH_LEVELS) as [WatchLevel, ...WatchLevel[]], { error: "Choose watching, normal or muted" }),
});
export type WatchValues = z.infer<typeof watchSchema>;
