import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Pages rendered at once (issue 29, ADR 0077). Every request the app is working on takes its share of
 * each turn of the event loop, and a page waits a turn for each of its database round trips: with
 * twenty misses in progress, a reply's thirty statements waited behind all of them thirty times.
 * A page the cache cannot answer is begun only while fewer than `limit` are in progress; the others
 * wait in line, first come first served, and each then runs in turns a few pages long.
 *
 * Only a page read (GET or HEAD) waits: a write is begun at once (it is a member's, its form is small
 * and it should not queue behind readers), and so are probes, files and uploads. A page's slot is
 * given back when the app ends its response, not when the client has read it: a slow reader holds
 * a socket, never a slot.
 */
export interface AdmissionOptions {
  /** Pages in progress at once. */
  limit: number;
  /** Past this many waiting, a page is refused at once with a 503 rather than queued. */
  maxWaiting: number;
  /** A page that waited this long is refused with a 503 when its turn comes. */
  maxWaitMs: number;
  /**
   * Past this many of one client's page reads waiting, its next is refused at once with a 503, so
   * that one client (an address with many connections) cannot fill the line and have every other
   * client's reads refused. Unlimited unless given, with `clientOf`.
   */
  maxWaitingPerClient?: number;
  /** Who a request is from, for `maxWaitingPerClient`: its address as the site trusts it. */
  clientOf?: (req: IncomingMessage) => string;
  /**
   * Pages begun in one turn of the event loop, at most; the others wait for the next turn. With
   * SQLite, whose statements are synchronous, a page is answered from start to end where it begins,
   * so a turn answered every connection whose request had arrived: at 100 connections a turn held
   * some 100 pages' work (350 ms), and timers, event streams and database replies waited for it.
   * Unlimited unless given.
   */
  perTurn?: number;
  /** Seconds a refused client is asked to wait (Retry-After). */
  retryAfterSeconds: number;
  now?: () => number;
}

export interface Admission {
  (req: IncomingMessage, res: ServerResponse, app: (req: IncomingMessage, res: ServerResponse) => void): void;
  /** Pages in progress now. */
  readonly inProgress: number;
  /** Pages waiting for a slot now. */
  readonly waiting: number;
  /** Pages refused since the start because the line was too long or too slow. */
  readonly refused: number;
}

/**
 * Never waits: health checks and files, whose answers cost no render, and the shared links'
 * pictures, which wait in a line of their own (RENDERS_AT_ONCE) and must not hold a page's place.
 */
const UNGATED = /^\/(healthz|readyz|media\/|assets\/|previews\/|favicon)/;

export function waitsForSlot(req: IncomingMessage) {
  return (req.method === "GET" || req.method === "HEAD") && !UNGATED.test(req.url ?? "/");
}

interface Waiting {
  req: IncomingMessage;
  res: ServerResponse;
  app: (req: IncomingMessage, res: ServerResponse) => void;
  since: number;
  /** Its client, when reads waiting are counted per client. */
  client: string | undefined;
}

export function admission({
  limit,
  maxWaiting,
  maxWaitMs,
  maxWaitingPerClient = Infinity,
  clientOf,
  perTurn = Infinity,
  retryAfterSeconds,
  now = Date.now,
}: AdmissionOptions): Admission {
  let inProgress = 0;
  let refused = 0;
  /** Pages begun since the last check phase (setImmediate), when a turn's pages are counted. */
  let begunThisTurn = 0;
  let turnEnding = false;
  const turnCounted = Number.isFinite(perTurn);
  /** Reads waiting per client; a client with none has no entry, so the map holds only the line's clients. */
  const waitingOf = new Map<string, number>();
  const counted = clientOf !== undefined && Number.isFinite(maxWaitingPerClient);
  // A queue as an array and a head index: shift() on a long array copies it.
  let line: Array<Waiting | undefined> = [];
  let head = 0;
  let scheduled = false;

  const refuse = (res: ServerResponse) => {
    refused++;
    if (res.headersSent || res.destroyed) return;
    res.statusCode = 503;
    res.setHeader("Retry-After", String(retryAfterSeconds));
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.setHeader("Cache-Control", "no-store");
    res.end("The site is busy. Please try again in a moment.");
  };

  const next = () => {
    while (inProgress < limit && begunThisTurn < perTurn && head < line.length) {
      const waiting = line[head]!;
      line[head++] = undefined;
      if (waiting.client !== undefined) {
        const left = waitingOf.get(waiting.client)! - 1;
        if (left === 0) waitingOf.delete(waiting.client);
        else waitingOf.set(waiting.client, left);
      }
      if (head > 1024 && head * 2 > line.length) {
        line = line.slice(head);
        head = 0;
      }
      // A client that went away while it waited costs nothing more.
      if (waiting.req.destroyed || waiting.res.destroyed) continue;
      if (now() - waiting.since > maxWaitMs) refuse(waiting.res);
      else begin(waiting.req, waiting.res, waiting.app);
    }
  };

  const begin = (req: IncomingMessage, res: ServerResponse, app: (req: IncomingMessage, res: ServerResponse) => void) => {
    inProgress++;
    if (turnCounted) {
      begunThisTurn++;
      // The check phase ends this turn's count: the pages left waiting begin there, a few, and the
      // rest in the turns after, with the loop's timers and sockets served in between.
      if (!turnEnding) {
        turnEnding = true;
        setImmediate(() => {
          turnEnding = false;
          begunThisTurn = 0;
          next();
        });
      }
    }
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      inProgress--;
      // Not inside this response's end(): the next page begins once the current task is done.
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(() => {
          scheduled = false;
          next();
        });
      }
    };
    // The app's work is done when it ends the response; "close" covers a client gone before that.
    const end = res.end;
    res.end = function (this: ServerResponse, ...args: unknown[]) {
      release();
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse["end"];
    res.once("close", release);
    try {
      app(req, res);
    } catch (error) {
      release();
      throw error;
    }
  };

  const gate = ((req, res, app) => {
    if (!waitsForSlot(req)) return app(req, res);
    if (inProgress < limit && begunThisTurn < perTurn && head === line.length) return begin(req, res, app);
    if (line.length - head >= maxWaiting) return refuse(res);
    const client = counted ? clientOf(req) : undefined;
    if (client !== undefined) {
      const waiting = waitingOf.get(client) ?? 0;
      if (waiting >= maxWaitingPerClient) return refuse(res);
      waitingOf.set(client, waiting + 1);
    }
    line.push({ req, res, app, since: now(), client });
  }) as Admission;
  Object.defineProperties(gate, {
    inProgress: { get: () => inProgress },
    waiting: { get: () => line.length - head },
    refused: { get: () => refused },
  });
  return gate;
}
