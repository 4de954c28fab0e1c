import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";
import { createTestSite, deliverQueuedMail, type TestSite } from "./test-services";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on loopback that keeps what it receives: on a random port, or on `port` (to
 * start it again where a stopped one was). `received` can be shared between such restarts. With
 * `hold` it reads each mail and never answers, as a server that hangs mid-delivery.
 */
export async function startSmtpServer(options: { port?: number; received?: ReceivedMail[]; hold?: boolean } = {}) {
  const received: ReceivedMail[] = options.received ?? [];
  /** With `hold`: the mails whose data came in and were never answered (the sender waits for ever). */
  const held: string[][] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      if (options.hold) {
        held.push(session.envelope.rcptTo.map((r) => r.address));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    held,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The body of a received mail with quoted-printable soft line breaks undone. */
export function mailText(raw: string) {
  return raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
}

/**
 * One test file's site whose mail goes to a real SMTP server on loopback: both opened before the
 * file's tests and closed after them.
 */
export function siteWithSmtp() {
  const handle = {
    /** Sends the queued mail to the SMTP server now (the app's worker does it on its own timer). */
    deliver: (now?: Date) => deliverQueuedMail(handle.site.services, now),
  } as {
    site: TestSite;
    smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    deliver: (now?: Date) => ReturnType<typeof deliverQueuedMail>;
  };
  beforeAll(async () => {
    handle.smtp = await startSmtpServer();
    handle.site = await createTestSite({ smtpUrl: handle.smtp.url });
  });
  afterAll(async () => {
    await handle.site.destroy();
    await handle.smtp.close();
  });
  return handle;
}
