import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { tag } from "~/.server/cache/page-tags";
import type { PageCache } from "./page-cache";
import { pgListener } from "./pg-listener";

/**
 * Carries page-cache invalidations between instances of the site (ADR 0026). On SQLite there is one
 * instance, so a write bumps the local cache only. On PostgreSQL every local write is also sent by
 * NOTIFY and every instance LISTENs on a connection of its own; while that connection is down the
 * cache serves nothing (it could not hear other instances' writes), and after it comes back the
 * whole cache is dropped, since notifications may have been missed meanwhile.
 */
export interface InvalidationBus {
  /** Resolves once the bus listens (PostgreSQL) or at once (SQLite). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export const DEFAULT_CHANNEL = "ipos_page_cache";
/** NOTIFY payloads are limited to 8000 bytes; a longer list of tags becomes "everything". */
const MAX_PAYLOAD = 7900;

export function localBus(): InvalidationBus {
  return { start: async () => {}, stop: async () => {} };
}

export interface PostgresBusOptions {
  cache: PageCache;
  /** The connection string of the site's database (the same database as the app). */
  url: string;
  /** Runs the NOTIFY (through the app's pool, so no second connection is held for sending). */
  notify: (channel: string, payload: string) => Promise<unknown>;
  channel?: string;
  logger: Logger;
  /** First and largest wait between reconnection attempts. */
  backoffMs?: { first: number; max: number };
}

export function postgresBus({
  cache,
  url,
  notify,
  channel = DEFAULT_CHANNEL,
  logger,
  backoffMs = { first: 200, max: 10_000 },
}: PostgresBusOptions): InvalidationBus & {
  /** Test hook: the listening backend's process id, to cut it. */
  backendPid(): number | undefined;
  listening(): boolean;
} {
  // Our own notifications come back to us; the instance id lets us skip the second bump.
  const instance = randomUUID().slice(0, 8);

  cache.onLocalWrite((tags) => {
    let payload = `${instance} ${tags.join(" ")}`;
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = `${instance} ${tag.site}`;
    // A lost notification leaves other instances stale until their TTL; say so, do not fail the write.
    notify(channel, payload).catch((error: unknown) => logger.warn({ err: error }, "page cache: NOTIFY failed"));
  });

  // The site still runs without the cache while the listener is down; it keeps trying in the background.
  return pgListener({
    url,
    channel,
    applicationName: `ipos-page-cache-${instance}`,
    name: "page cache: invalidation listener",
    logger,
    backoffMs,
    onPayload(payload) {
      const [from, ...tags] = payload.split(" ");
      if (from !== instance) cache.bump(tags, { local: false });
    },
    onListening() {
      // Anything another instance wrote while we were not listening is unknown: forget every page.
      cache.bump([tag.site], { local: false });
      cache.setTrusted(true);
    },
    onDown: () => cache.setTrusted(false),
  });
}
