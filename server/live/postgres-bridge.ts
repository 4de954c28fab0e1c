import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Logger } from "pino";
import type { LiveEvent, LocalLiveBus } from "~/.server/live/live-bus";

/**
 * Carries live events between instances of the site on PostgreSQL (issue 28, item 5, ADR 0057), as
 * the invalidation bus carries page-cache tags (server/invalidation-bus.ts): every local publication
 * is also sent by NOTIFY, and every instance LISTENs on a connection of its own and hands what other
 * instances sent to its own streams. Events are best effort: one sent while an instance was not
 * listening is lost to it, so after a reconnection `onGap` lets the streams start over (browsers
 * reconnect and read the bell's count afresh).
 */

export const DEFAULT_LIVE_CHANNEL = "ipos_live";
/** NOTIFY payloads are limited to 8000 bytes; events waiting together are packed up to this. */
const MAX_PAYLOAD = 7900;

export interface LiveBridgeOptions {
  bus: LocalLiveBus;
  /** The connection string of the site's database. */
  url: string;
  /** Runs the NOTIFY (through the app's pool, so no second connection is held for sending). */
  notify: (channel: string, payload: string) => Promise<unknown>;
  channel?: string;
  logger: Logger;
  /** Called when the listener is back after a loss: events of other instances may have been missed. */
  onGap?: () => void;
  backoffMs?: { first: number; max: number };
}

export interface LiveBridge {
  /** Resolves once the bridge listens (or failed to and keeps trying in the background). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Test hooks: the listening backend's process id, to cut it, and whether it listens now. */
  backendPid(): number | undefined;
  listening(): boolean;
}

/**
 * One payload: the sending instance, then one `<channel> <event JSON>` a line (channels are
 * `kind:id`, JSON has no raw newline).
 */
export function packPayloads(instance: string, items: { channel: string; event: LiveEvent }[]): string[] {
  const payloads: string[] = [];
  let current = instance;
  for (const { channel, event } of items) {
    const line = `\n${channel} ${JSON.stringify(event)}`;
    if (Buffer.byteLength(instance + line) > MAX_PAYLOAD) continue;
    if (Buffer.byteLength(current + line) > MAX_PAYLOAD) {
      payloads.push(current);
      current = instance;
    }
    current += line;
  }
  if (current !== instance) payloads.push(current);
  return payloads;
}

/** The sender and events of a payload; lines that do not parse are left out. */
export function unpackPayload(payload: string): { from: string; items: { channel: string; event: LiveEvent }[] } {
  const [from = "", ...lines] = payload.split("\n");
  const items: { channel: string; event: LiveEvent }[] = [];
  for (const line of lines) {
    const space = line.indexOf(" ");
    if (space < 1) continue;
    try {
      const event = JSON.parse(line.slice(space + 1)) as LiveEvent;
      if (event && typeof event === "object" && typeof event.type === "string") items.push({ channel: line.slice(0, space), event });
    } catch {
      // Not ours (someone else's NOTIFY on the channel): ignored.
    }
  }
  return { from, items };
}

export function postgresLiveBridge({
  bus,
  url,
  notify,
  channel = DEFAULT_LIVE_CHANNEL,
  logger,
  onGap,
  backoffMs = { first: 200, max: 10_000 },
}: LiveBridgeOptions): LiveBridge {
  // Our own notifications come back to us; the instance id lets us skip them (delivered locally already).
  const instance = randomUUID().slice(0, 8);
  let client: pg.Client | undefined;
  let pid: number | undefined;
  let stopped = false;
  let listening = false;
  let connectedOnce = false;
  let delay = backoffMs.first;
  let timer: NodeJS.Timeout | undefined;
  let firstConnect: Promise<void> | undefined;
  let queue: { channel: string; event: LiveEvent }[] = [];

  // Publications in one turn of the event loop (a reply's watchers' bells) go in as few NOTIFYs as fit.
  const flush = () => {
    const items = queue;
    queue = [];
    for (const payload of packPayloads(instance, items)) {
      // A lost notification leaves other instances' pages without that update; the write stands.
      notify(channel, payload).catch((error: unknown) => logger.warn({ err: error }, "live: NOTIFY failed"));
    }
  };
  const onPublish = (liveChannel: string, event: LiveEvent) => {
    if (stopped) return;
    if (queue.length === 0) setImmediate(flush);
    queue.push({ channel: liveChannel, event });
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, application_name: `ipos-live-${instance}` });
    c.on("error", (error) => {
      logger.warn({ err: error.message }, "live: listener lost its connection");
      lost(c);
    });
    c.on("end", () => lost(c));
    c.on("notification", (message) => {
      if (message.channel !== channel || !message.payload) return;
      const { from, items } = unpackPayload(message.payload);
      if (from === instance) return;
      for (const item of items) bus.deliver(item.channel, item.event);
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
    listening = true;
    delay = backoffMs.first;
    if (connectedOnce) onGap?.();
    connectedOnce = true;
  };

  const lost = (c: pg.Client) => {
    if (client !== c && client !== undefined) return;
    client = undefined;
    pid = undefined;
    listening = false;
    c.end().catch(() => {});
    schedule();
  };

  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      connect().catch((error: unknown) => {
        logger.warn({ err: (error as Error).message, retryMs: delay }, "live: listener could not connect");
        delay = Math.min(delay * 2, backoffMs.max);
        schedule();
      });
    }, delay);
    timer.unref();
  };

  return {
    start() {
      bus.onPublish = onPublish;
      firstConnect ??= connect().catch((error: unknown) => {
        // Local streams still get local events; the listener keeps trying in the background.
        logger.warn({ err: (error as Error).message }, "live: listener could not connect");
        // Once it does connect, whatever other instances sent meanwhile was not heard: a gap.
        connectedOnce = true;
        schedule();
      });
      return firstConnect;
    },
    async stop() {
      stopped = true;
      if (bus.onPublish === onPublish) bus.onPublish = undefined;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      listening = false;
      await c?.end().catch(() => {});
    },
    backendPid: () => pid,
    listening: () => listening,
  };
}
