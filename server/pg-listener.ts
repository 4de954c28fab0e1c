import pg from "pg";
import type { Logger } from "pino";

/**
 * A LISTEN on a PostgreSQL connection of its own that keeps itself up: on an error or the end of
 * its connection it starts over, waiting twice as long after each failed attempt (up to a limit).
 * What is heard while it is down is lost, so its users are told each time it listens again: the
 * page cache's invalidation bus (server/invalidation-bus.ts) drops every kept page, the live bridge
 * (server/live/postgres-bridge.ts) lets its streams start over.
 */
export interface PgListenerOptions {
  /** The connection string of the site's database. */
  url: string;
  channel: string;
  applicationName: string;
  /** How its log lines begin: "live: listener". */
  name: string;
  logger: Logger;
  /** First and largest wait between reconnection attempts. */
  backoffMs: { first: number; max: number };
  /** A notification on the channel, with a payload. */
  onPayload(payload: string): void;
  /**
   * It listens: the first time (`again` false), or after a loss or a first attempt that failed
   * (`again` true: notifications may have been missed).
   */
  onListening(again: boolean): void;
  /** It does not listen (before the start, after a loss, at the stop). */
  onDown?(): void;
}

export interface PgListener {
  /** Resolves once it listens, or once its first attempt failed (it keeps trying in the background). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Test hooks: the listening backend's process id, to cut it, and whether it listens now. */
  backendPid(): number | undefined;
  listening(): boolean;
}

export function pgListener(options: PgListenerOptions): PgListener {
  const { url, channel, applicationName, name, logger, backoffMs } = options;
  let client: pg.Client | undefined;
  let pid: number | undefined;
  let stopped = false;
  let listening = false;
  let attempted = false;
  let delay = backoffMs.first;
  let timer: NodeJS.Timeout | undefined;
  let firstConnect: Promise<void> | undefined;

  const down = () => {
    listening = false;
    options.onDown?.();
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, application_name: applicationName });
    c.on("error", (error) => {
      // A dead backend or network error: every later query fails too, so start over.
      logger.warn({ err: error.message }, `${name} lost its connection`);
      lost(c);
    });
    c.on("end", () => lost(c));
    c.on("notification", (message) => {
      if (message.channel === channel && message.payload) options.onPayload(message.payload);
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
    const again = attempted;
    attempted = true;
    options.onListening(again);
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
        logger.warn({ err: (error as Error).message, retryMs: delay }, `${name} could not connect`);
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
        logger.warn({ err: (error as Error).message }, `${name} could not connect`);
        // Once it does connect, whatever was sent meanwhile was not heard.
        attempted = true;
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
