import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import { DEFAULT_MAIL_FROM, mailFromAddress } from "../env";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** A Message-ID on the sender's own domain (RFC 5322 §3.6.4), as MAIL_FROM names it, never a fixed one. */
export function messageId(from: string) {
  const address = mailFromAddress(from) ?? mailFromAddress(DEFAULT_MAIL_FROM)!;
  return `<${randomUUID()}@${address.slice(address.lastIndexOf("@") + 1)}>`;
}

/**
 * Real mails (PRODUCT.md §5): over SMTP when SMTP_URL is set; otherwise each mail is written as an
 * .eml file into DATA_DIR/outbox and its path logged, so a developer can open it.
 */
export function createMailer(options: { smtpUrl?: string; outboxDir: string; logger: Logger; from?: string }): Mailer {
  // MAIL_FROM, checked at start (env.ts).
  const from = options.from ?? DEFAULT_MAIL_FROM;
  if (options.smtpUrl) {
    // Bounded well inside the outbox worker's 5-minute lease (nodemailer's socket default is 10
    // minutes), so a hung server fails the attempt instead of letting another instance resend it.
    const transport: Transporter = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    return {
      async send(mail) {
        await transport.sendMail({ from, messageId: messageId(from), ...mail });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, messageId: messageId(from), ...mail });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = path.join(options.outboxDir, `${stamp}-${randomUUID().slice(0, 8)}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      options.logger.info({ file, to: mail.to, subject: mail.subject }, "mail written to outbox");
    },
  };
}
