import type { AppServices, Viewer } from "../context";
import { hit, tryAgainMessage } from "../rate-limit";
import { WRITE_LIMIT } from "~/lib/limits";

/** What a domain action returns: its value, or an HTTP status with messages keyed by field. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; status: 400 | 403 | 404 | 409 | 429 | 503; errors: Record<string, string> };

export const fail = (status: 400 | 403 | 404 | 409 | 429 | 503, message: string, field = "form"): Outcome<never> => ({
  ok: false,
  status,
  errors: { [field]: message },
});

/** The burst limit's key, also the lock that queues one member's new posts (post-limits.ts). */
export const writeKey = (viewer: Viewer) => `write:member:${viewer.id}`;

/** The burst limit alone, for writes that are no new post (topics, edits); checked and recorded at once. */
export async function writeAllowed(services: AppServices, viewer: Viewer): Promise<Outcome<null>> {
  const limited = await hit(services.db, [{ key: writeKey(viewer), ...WRITE_LIMIT }]);
  return limited.ok ? { ok: true, value: null } : fail(429, tryAgainMessage(limited.retryMinutes));
}
