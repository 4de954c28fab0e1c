import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Logger } from "pino";
import { tag } from "~/.server/cache/page-tags";
import type { PageCache } from "./page-cache";

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
  let client: pg.Client | undefined;
  let pid: number | undefined;
  let stopped = false;
  let listening = false;
  let delay = backoffMs.first;
  let timer: NodeJS.Timeout | undefined;
  let firstConnect: Promise<void> | undefined;

  cache.onLocalWrite((tags) => {
    let payload = `${instance} ${tags.join(" ")}`;
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = `${instance} ${tag.site}`;
    // A lost notification leaves other instances stale until their TTL; say so, do not fail the write.
    notify(channel, payload).catch((error: unknown) => logger.warn({ err: error }, "page cache: NOTIFY failed"));
  });

  const down = () => {
    listening = false;
    cache.setTrusted(false);
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, application_name: `ipos-page-cache-${instance}` });
    c.on("error", (error) => {
      // A dead backend or network error: every later query fails too, so start over.
      logger.warn({ err: error.message }, "page cache: invalidation listener lost its connection");
      lost(c);
    });
    c.on("end", () => lost(c));
    c.on("notification", (message) => {
      if (message.channel !== channel || !message.payload) return;
      const [from, ...tags] = message.payload.split(" ");
      if (from === instance) return;
      cache.bump(tags, { local: false });
    });
    await c.connect();
    await c.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    const result = await c.query<{ pid: number }>("select pg_backend_pid() as pid");
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    pid = result.rows[0]?.pid;
    // Anything another instance wrote while we were not listening is unknown: forget every page.
    cache.bump([tag.site], { local: false });
    cache.setTrusted(true);
    listening = true;
    delay = backoffMs.first;
  };

  const lost = (c: pg.Client) => {
    if (client !== c && client !== undefined) return;
    client = undefined;
    pid = undefined;
    down();
    c.end().catch(() => {});
    schedule();
  };

  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      connect().catch((error: unknown) => {
        logger.warn({ err: (error as Error).message, retryMs: delay }, "page cache: invalidation listener could not connect");
        delay = Math.min(delay * 2, backoffMs.max);
        schedule();
      });
    }, delay);
    timer.unref();
  };

  return {
    start() {
      down();
      firstConnect ??= connect().catch((error: unknown) => {
        // The site still runs without the cache; the listener keeps trying in the background.
        logger.warn({ err: (error as Error).message }, "page cache: invalidation listener could not connect");
        schedule();
      });
      return firstConnect;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      down();
      await c?.end().catch(() => {});
    },
    backendPid: () => pid,
    listening: () => listening,
  };
}
