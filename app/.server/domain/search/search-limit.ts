import type { AppServices } from "../../context";
import { hit, tryAgainMessage } from "../../rate-limit";
import { SEARCH_LIMIT } from "~/lib/limits";
import { fail, type Outcome } from "../outcome";

/**
 * Search is the one page whose every request runs a query over everything (issue 30): counted per
 * IP, as the other limits are, in the database, so every app process shares the count (ADR 0008).
 */
export async function searchAllowed(services: AppServices, clientIp: string): Promise<Outcome<null>> {
  const limited = await hit(services.db, [{ key: `search:ip:${clientIp}`, ...SEARCH_LIMIT }]);
  return limited.ok ? { ok: true, value: null } : fail(429, tryAgainMessage(limited.retryMinutes));
}
