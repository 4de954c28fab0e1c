import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { LiveEvent, LocalLiveBus } from "~/.server/live/live-bus";
import { pgListener, type PgListener } from "../pg-listener";

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

/** Resolves its start once the bridge listens (or failed to and keeps trying in the background). */
export type LiveBridge = PgListener;

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
  let stopped = false;
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

  const listener = pgListener({
    url,
    channel,
    applicationName: `ipos-live-${instance}`,
    name: "live: listener",
    logger,
    backoffMs,
    onPayload(payload) {
      const { from, items } = unpackPayload(payload);
      if (from === instance) return;
      for (const item of items) bus.deliver(item.channel, item.event);
    },
    onListening(again) {
      if (again) onGap?.();
    },
  });

  return {
    start() {
      // Local streams still get local events while the listener is down.
      bus.onPublish = onPublish;
      return listener.start();
    },
    async stop() {
      stopped = true;
      if (bus.onPublish === onPublish) bus.onPublish = undefined;
      await listener.stop();
    },
    backendPid: listener.backendPid,
    listening: listener.listening,
  };
}
