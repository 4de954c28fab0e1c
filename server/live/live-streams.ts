import type { Request, Response } from "express";
import { RouterContextProvider } from "react-router";
import { servicesContext, type AppServices } from "~/.server/context";
import type { LiveBus, LiveEvent } from "~/.server/live/live-bus";
import { loadViewer } from "~/.server/session";

/**
 * `GET /live`: the Server-Sent Events stream an open page listens to (issue 28, item 5, ADR 0057).
 * It carries the signed-in member's own channel (`member:<id>`, from the session cookie, never from
 * the address) and at most one public channel the address names (`?watch=discussion:12` or
 * `?watch=question:3`), whose events carry ids only: the page fetches what its reader may see.
 *
 * An Express route in front of the page cache and React Router (server/app.ts): never kept, never a
 * write. Each stream costs one session read when it opens and a few hundred bytes while it stays open.
 */

/** A process's open streams at most (each holds a socket and its buffers); beyond it, 503. */
export const MAX_STREAMS = 5000;
/**
 * One client address's open streams at most (a browser opens one per tab), so one client cannot
 * take every slot; beyond it, 429. Generous, since many readers may share one address (NAT).
 */
export const MAX_STREAMS_PER_CLIENT = 100;
/**
 * Bytes a stream may have waiting to be sent. A client that stops reading lets the socket's buffer
 * grow with every event; past this the stream is cut, so memory stays bounded whatever it does. A
 * reader that keeps up never has more than the last few events waiting.
 */
export const MAX_BUFFERED_BYTES = 64 * 1024;
/** A comment line this often keeps proxies (nginx's 60 s default) from closing a quiet stream. */
export const HEARTBEAT_MS = 25_000;
/**
 * The browser reconnects this long after a stream ends; each stream gets a value in this range, so
 * the streams a restart ended do not all come back in the same instant.
 */
export const RETRY_MS = { min: 3000, max: 10_000 };

const PUBLIC_CHANNEL = /^(discussion|question):([1-9][0-9]{0,9})$/;

/**
 * The public channel an address asks for: `{ watch: null }` for none, or null when the query is
 * anything but nothing or one `watch` naming a discussion or question by id.
 */
export function watchedChannel(search: string): { watch: string | null } | null {
  const params = new URLSearchParams(search);
  let watch: string | null = null;
  for (const [key, value] of params) {
    // A second watch, or any other parameter: not something this endpoint understands.
    if (key !== "watch" || watch !== null) return null;
    const match = PUBLIC_CHANNEL.exec(value);
    if (!match || !Number.isSafeInteger(Number(match[2]))) return null;
    watch = value;
  }
  return { watch };
}

/** One event as the stream sends it: its JSON as the data line (no newline can occur in JSON). */
export function eventChunk(event: LiveEvent) {
  return `data: ${JSON.stringify(event)}\n\n`;
}

export interface LiveStreamsOptions {
  services: AppServices;
  /** Where streams subscribe; the services' bus unless told otherwise. */
  bus?: LiveBus;
  /** The client's address as rate limits read it (server/http.ts clientAddress). */
  clientIp: (req: Request) => string;
  /** True once a stop has begun: a new stream is told to come back later, then ended. */
  draining?: () => boolean;
  maxStreams?: number;
  maxStreamsPerClient?: number;
  maxBufferedBytes?: number;
  heartbeatMs?: number;
}

export interface LiveStreams {
  /** The Express handler for `/live` (all methods: only GET is answered with a stream). */
  handle(req: Request, res: Response): Promise<void>;
  /** Streams open now. */
  open(): number;
  /**
   * Ends every open stream (at the start of a graceful stop, or after the PostgreSQL listener
   * missed events): browsers reconnect after their retry and get the current state again.
   */
  endAll(): void;
  /** Ends every stream and stops the heartbeat. */
  close(): void;
}

interface Stream {
  res: Response;
  ip: string;
  end(): void;
}

export function liveStreams({
  services,
  bus = services.live,
  clientIp,
  draining = () => false,
  maxStreams = MAX_STREAMS,
  maxStreamsPerClient = MAX_STREAMS_PER_CLIENT,
  maxBufferedBytes = MAX_BUFFERED_BYTES,
  heartbeatMs = HEARTBEAT_MS,
}: LiveStreamsOptions): LiveStreams {
  const streams = new Set<Stream>();
  /** Slots taken per address, counted from before the session read so a burst cannot overshoot. */
  const perClient = new Map<string, number>();
  let reserved = 0;
  let heartbeat: NodeJS.Timeout | undefined;
  // One event reaches many streams: it is serialised once (keyed by the event object).
  const chunks = new WeakMap<LiveEvent, Buffer>();

  const release = (ip: string) => {
    reserved -= 1;
    const n = (perClient.get(ip) ?? 1) - 1;
    if (n <= 0) perClient.delete(ip);
    else perClient.set(ip, n);
  };

  /** Writes, then cuts a stream whose client has let too much pile up. */
  const send = (stream: Stream, chunk: Buffer | string) => {
    const { res } = stream;
    if (res.destroyed || res.writableEnded) return;
    res.write(chunk);
    // writableLength counts what the response and its socket still hold; destroy() frees it at
    // once, where end() would wait for a reader that is not reading.
    if (res.writableLength > maxBufferedBytes) res.destroy();
  };

  const beat = () => {
    for (const stream of streams) send(stream, ":\n\n");
  };

  const handle = async (req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Content-Type-Options", "nosniff");
    if (req.method !== "GET") {
      res.setHeader("Allow", "GET");
      return void res.status(405).type("text/plain").send("Method Not Allowed");
    }
    const query = req.originalUrl.indexOf("?");
    const asked = watchedChannel(query === -1 ? "" : req.originalUrl.slice(query + 1));
    if (!asked) return void res.status(400).type("text/plain").send("Bad Request: watch one discussion:<id> or question:<id>");
    const retry = RETRY_MS.min + Math.floor(Math.random() * (RETRY_MS.max - RETRY_MS.min));
    if (draining()) {
      // A 503 would end EventSource for good; an empty stream with a retry hint brings it back,
      // by then to an instance that is not stopping.
      res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8" });
      return void res.end(`retry: ${retry}\n\n`);
    }
    const ip = clientIp(req);
    if (reserved >= maxStreams) return void res.status(503).set("Retry-After", "60").type("text/plain").send("Too many open streams");
    if ((perClient.get(ip) ?? 0) >= maxStreamsPerClient) return void res.status(429).set("Retry-After", "60").type("text/plain").send("Too many open streams");
    reserved += 1;
    perClient.set(ip, (perClient.get(ip) ?? 0) + 1);

    let member: { id: string; unread: number } | null = null;
    try {
      // As every page finds its member: the settled session's fast path, else Better Auth's.
      const context = new RouterContextProvider();
      context.set(servicesContext, services);
      const request = new Request(new URL(req.originalUrl, "http://site.invalid"), { headers: { cookie: req.get("cookie") ?? "" } });
      const found = await loadViewer(context, request);
      // A refreshed or cleared session cookie travels with the stream, as with a page.
      for (const cookie of found.headers.getSetCookie()) res.append("Set-Cookie", cookie);
      if (found.viewer) member = { id: found.viewer.id, unread: found.unread };
    } catch (error) {
      release(ip);
      res.locals.logger?.warn({ err: error }, "live: could not read the session");
      return void res.status(503).set("Retry-After", "10").type("text/plain").send("Service Unavailable");
    }
    // Nothing to stream: a visitor who watches nothing (204 also tells EventSource not to retry).
    if (!member && !asked.watch) {
      release(ip);
      return void res.status(204).end();
    }
    if (req.socket.destroyed) {
      release(ip);
      return;
    }

    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      // nginx would otherwise hold events back to fill its buffer.
      "X-Accel-Buffering": "no",
    });
    const unsubscribes: (() => void)[] = [];
    let ended = false;
    const stream: Stream = {
      res,
      ip,
      end() {
        if (!ended) res.end();
      },
    };
    const deliver = (event: LiveEvent) => {
      let chunk = chunks.get(event);
      if (!chunk) chunks.set(event, (chunk = Buffer.from(eventChunk(event))));
      send(stream, chunk);
    };
    res.once("close", () => {
      ended = true;
      for (const unsubscribe of unsubscribes) unsubscribe();
      streams.delete(stream);
      release(ip);
      if (streams.size === 0 && heartbeat) {
        clearInterval(heartbeat);
        heartbeat = undefined;
      }
    });
    streams.add(stream);
    if (asked.watch) unsubscribes.push(bus.subscribe(asked.watch, deliver));
    if (member) unsubscribes.push(bus.subscribe(`member:${member.id}`, deliver));
    // The count as of now, so a bell that changed since the page was drawn (or while a stream was
    // away) is right again without waiting for the next notification.
    send(stream, `retry: ${retry}\n\n${member ? eventChunk({ type: "bell", unread: member.unread }) : ":\n\n"}`);
    if (!heartbeat) {
      heartbeat = setInterval(beat, heartbeatMs);
      heartbeat.unref();
    }
  };

  const endAll = () => {
    for (const stream of [...streams]) stream.end();
  };

  return {
    handle,
    open: () => streams.size,
    endAll,
    close() {
      endAll();
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = undefined;
    },
  };
}

/** Whether a request is for the stream (the page-cache front passes these straight to the app). */
export function isLiveRequest(url: string | undefined) {
  return url === "/live" || url?.startsWith("/live?") === true;
}
