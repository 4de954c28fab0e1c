import fs from "node:fs";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/.server/context";
import { currentPageTags, withPageTags, type PageTags } from "~/.server/cache/page-tags";
import { SUBSCRIBE_MESSAGE } from "~/.server/domain/newsletter/newsletter-service";
import { createMailer, type Mailer } from "~/.server/mail/mailer";
import { enqueueMail, InvalidMailError, type QueuedMail } from "~/.server/mail/outbox";
import { backoffMs, createOutboxWorker, OUTBOX_DEFAULTS, outboxPruningJob, startOutboxWorker } from "~/.server/mail/outbox-worker";
import { passwordResetMail } from "~/.server/mail/templates/password-reset";
import { emailChangeMail } from "~/.server/mail/templates/email-change";
import { cancelledMail, changedMail, promotedMail, reminderMail } from "~/.server/domain/events/event-mails";
import { readable, startSite } from "./site-server";
import { mailText, startSmtpServer, type ReceivedMail } from "./smtp";
import { createTestSite, deliverQueuedMail, ENGINE, type TestSite } from "./test-services";

const mail = (to: string, extra: Partial<QueuedMail> = {}): QueuedMail => ({
  to,
  subject: "A test mail",
  text: "Plain words.",
  html: "<p>Plain words.</p>",
  kind: "test",
  ...extra,
});

const outbox = (site: TestSite) => site.services.db.selectFrom("mail_outbox").selectAll().orderBy("id").execute();
const seconds = (t: Date, s: number) => new Date(t.getTime() + s * 1000);

/** Waits for a condition the worker's own timers bring about (up to 5 s). */
async function until(check: () => boolean) {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 5000) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A mailer whose SMTP server is on a port nothing listens on (refused at once). */
async function downSmtpUrl() {
  const smtp = await startSmtpServer();
  await smtp.close();
  return { port: smtp.port, url: smtp.url };
}

describe(`the mail outbox on ${ENGINE}`, () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await createTestSite();
  });
  afterAll(() => site.destroy());

  it("queues nothing when the change that queued the mail rolls back", async () => {
    const failed = site.services.db.transaction().execute(async (trx) => {
      await enqueueMail(trx, mail("rollback@example.org"));
      throw new Error("the change fails after queuing its mail");
    });
    await expect(failed).rejects.toThrow("the change fails");
    expect((await outbox(site)).filter((r) => r.to_address === "rollback@example.org")).toHaveLength(0);

    await site.services.db.transaction().execute((trx) => enqueueMail(trx, mail("commit@example.org")));
    expect((await outbox(site)).filter((r) => r.to_address === "commit@example.org")).toHaveLength(1);
  });

  it("a round woken by a mail a request queued runs outside that request: its jobs' reads and writes are not the request's", async () => {
    const local = await createTestSite();
    const seen: Array<PageTags | undefined> = [];
    const stop = startOutboxWorker(local.services, { pollMs: 60_000, jobs: [async () => void seen.push(currentPageTags())] });
    try {
      // The start's own round first.
      await until(() => seen.length >= 1);
      const tags: PageTags = { reads: new Set(), writes: new Set() };
      await withPageTags(tags, () => local.services.db.transaction().execute((trx) => enqueueMail(trx, mail("nudge@example.org"))));
      await until(() => seen.length >= 2);
      expect(seen.every((store) => store === undefined)).toBe(true);
      expect([...tags.writes]).toEqual([]);
    } finally {
      await stop();
      await local.destroy();
    }
  });

  it("refuses a malformed address with a typed error and queues nothing", async () => {
    const before = (await outbox(site)).length;
    for (const to of ["not-an-address", "a@b.example\r\nBcc: x@evil.example", "Ada <ada@example.org>", "a@b.example, c@d.example", ""]) {
      await expect(enqueueMail(site.services.db, mail(to))).rejects.toBeInstanceOf(InvalidMailError);
    }
    await expect(enqueueMail(site.services.db, mail("ok@example.org", { headers: { "Bcc: x@evil.example\r\nX": "1" } }))).rejects.toBeInstanceOf(
      InvalidMailError,
    );
    expect((await outbox(site)).length).toBe(before);
  });

  it("queues a mail with a dedupe key once", async () => {
    expect(await enqueueMail(site.services.db, mail("once@example.org", { dedupeKey: "reminder:1:once" }))).toBe(true);
    expect(await enqueueMail(site.services.db, mail("once@example.org", { dedupeKey: "reminder:1:once" }))).toBe(false);
    expect((await outbox(site)).filter((r) => r.to_address === "once@example.org")).toHaveLength(1);
  });

  it("backs off exponentially after each failure, up to a cap, and gives up after the last attempt with an error log", async () => {
    const local = await createTestSite({ smtpUrl: (await downSmtpUrl()).url });
    const lines: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void lines.push(line) });
    const services: AppServices = { ...local.services, logger };
    try {
      const t0 = new Date("2030-01-01T00:00:00.000Z");
      await enqueueMail(services.db, mail("retry@example.org"), t0);
      const worker = createOutboxWorker(services, { maxAttempts: 4, backoffBaseMs: 30_000, backoffCapMs: 90_000 });

      let t = t0;
      const waits: number[] = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        expect(await worker.runOnce(t)).toMatchObject({ claimed: 1, retrying: 1 });
        const [row] = await outbox(local);
        expect(row.attempts).toBe(attempt);
        expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
        const next = new Date(row.next_attempt_at);
        waits.push((next.getTime() - t.getTime()) / 1000);
        // Not due a moment before its time.
        expect((await worker.runOnce(new Date(next.getTime() - 1))).claimed).toBe(0);
        t = next;
      }
      expect(waits).toEqual([30, 60, 90]);

      expect(await worker.runOnce(t)).toMatchObject({ claimed: 1, gaveUp: 1 });
      const [row] = await outbox(local);
      expect(row.attempts).toBe(4);
      expect(row.failed_at).not.toBeNull();
      expect(row.sent_at).toBeNull();
      expect((await worker.runOnce(seconds(t, 365 * 86_400))).claimed).toBe(0);
      const errors = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 50);
      expect(errors.map((l) => l.msg)).toEqual(["mail given up after its last attempt"]);
    } finally {
      await local.destroy();
    }
  });

  it("lets sent and given-up mail go after 30 days, hourly, and never touches mail still to send", async () => {
    const local = await createTestSite();
    try {
      const db = local.services.db;
      const t0 = new Date("2031-03-01T00:00:00.000Z");
      const at = (days: number) => new Date(t0.getTime() + days * 86_400_000).toISOString();
      for (const to of ["sent-long-ago@example.org", "failed-long-ago@example.org", "sent-lately@example.org", "waiting@example.org"]) {
        await enqueueMail(db, mail(to), new Date(at(-60)));
      }
      /** Moves the row of the mail to `to` to where the pruning should find it. */
      const setRow = (to: string, values: { sent_at?: string; failed_at?: string; attempts?: number; next_attempt_at?: string }) =>
        db.updateTable("mail_outbox").set(values).where("to_address", "=", to).execute();
      await setRow("sent-long-ago@example.org", { sent_at: at(-31) });
      await setRow("failed-long-ago@example.org", { failed_at: at(-31), attempts: 8 });
      await setRow("sent-lately@example.org", { sent_at: at(-29) });
      // Backing off (not due in this round), however old.
      await setRow("waiting@example.org", { attempts: 3, next_attempt_at: at(1) });

      const worker = createOutboxWorker(local.services, { jobs: [outboxPruningJob()] });
      await worker.runOnce(t0);
      expect((await outbox(local)).map((r) => r.to_address)).toEqual(["sent-lately@example.org", "waiting@example.org"]);
      // Within the hour the job does not run again; after it, it does.
      await db
        .updateTable("mail_outbox")
        .set({ sent_at: at(-40) })
        .where("to_address", "=", "sent-lately@example.org")
        .execute();
      await worker.runOnce(seconds(t0, 1800));
      expect((await outbox(local)).map((r) => r.to_address)).toEqual(["sent-lately@example.org", "waiting@example.org"]);
      await worker.runOnce(seconds(t0, 3601));
      expect((await outbox(local)).map((r) => r.to_address)).toEqual(["waiting@example.org"]);
    } finally {
      await local.destroy();
    }
  });

  it("uses a doubling backoff from 30 s capped at an hour by default", () => {
    expect([1, 2, 3, 4, 8, 20].map((a) => backoffMs(a) / 1000)).toEqual([30, 60, 120, 240, 3600, 3600]);
    expect(OUTBOX_DEFAULTS.maxAttempts).toBeGreaterThan(1);
  });

  it("gives a claim back when its lease runs out (an instance that died mid-send)", async () => {
    const local = await createTestSite();
    const smtp = await startSmtpServer();
    try {
      const t0 = new Date("2030-01-01T00:00:00.000Z");
      await enqueueMail(local.services.db, mail("lease@example.org"), t0);
      // This instance claims the mail and never finishes sending it (as if it died).
      let inSend!: () => void;
      const claimed = new Promise<void>((resolve) => (inSend = resolve));
      const stuck: Mailer = {
        send: () => {
          inSend();
          return new Promise<void>(() => {});
        },
      };
      void createOutboxWorker(local.services, { mailer: stuck, leaseMs: 60_000 }).runOnce(t0);
      await claimed;
      const other = createOutboxWorker(local.services, {
        mailer: createMailer({ smtpUrl: smtp.url, outboxDir: "", logger: local.services.logger }),
        leaseMs: 60_000,
      });
      // The claim holds: another worker finds nothing while the lease runs.
      expect((await other.runOnce(seconds(t0, 59))).claimed).toBe(0);
      expect(await other.runOnce(seconds(t0, 60))).toMatchObject({ claimed: 1, sent: 1 });
      expect(smtp.received.map((m) => m.to)).toEqual([["lease@example.org"]]);
    } finally {
      await smtp.close();
      await local.destroy();
    }
  });

  it("strips CR/LF from the subject and header values, so no field adds a Bcc to the delivered message", async () => {
    const smtp = await startSmtpServer();
    const local = await createTestSite({ smtpUrl: smtp.url });
    try {
      await enqueueMail(
        local.services.db,
        mail("inject@example.org", { subject: "Hello\r\nBcc: x@evil.example", headers: { "X-Entity-Ref": "ref\r\nBcc: y@evil.example" } }),
      );
      const [row] = await outbox(local);
      expect(row.subject).not.toMatch(/[\r\n]/);
      expect(row.headers).not.toMatch(/\\r|\\n/);
      expect((await deliverQueuedMail(local.services)).sent).toBe(1);
      expect(smtp.received).toHaveLength(1);
      const [received] = smtp.received;
      expect(received.to).toEqual(["inject@example.org"]);
      const head = received.raw.split(/\r?\n\r?\n/)[0];
      expect(head).not.toMatch(/^Bcc:/im);
      expect(head).toMatch(/^Subject: Hello Bcc: x@evil.example$/m);
    } finally {
      await local.destroy();
      await smtp.close();
    }
  });

  it("escapes member text in the HTML part and keeps it as written in the text part", async () => {
    const rendered = passwordResetMail("<b>Ada</b> & co", "http://localhost:3000/reset-password?token=abc");
    expect(rendered.html).toContain("Hello &lt;b&gt;Ada&lt;/b&gt; &amp; co,");
    expect(rendered.html).not.toContain("<b>Ada</b>");
    expect(rendered.text).toContain("Hello <b>Ada</b> & co,");
    expect(rendered.text).toContain("http://localhost:3000/reset-password?token=abc");
    expect(rendered.html).toContain('href="http://localhost:3000/reset-password?token=abc"');
  });

  it("sends from MAIL_FROM with a Message-ID on its domain, not a fixed one (issue 26 item 8)", async () => {
    const smtp = await startSmtpServer();
    try {
      const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: "", logger: pino({ level: "silent" }), from: '"Quiet Circle" <circle@mail.example.org>' });
      await mailer.send({ to: "from@example.org", subject: "From test", text: "Plain words." });
      await mailer.send({ to: "from@example.org", subject: "From test", text: "Plain words." });
      const heads = smtp.received.map((m) => m.raw.split(/\r?\n\r?\n/)[0]);
      expect(heads[0]).toMatch(/^From: "?Quiet Circle"? <circle@mail\.example\.org>$/m);
      const ids = heads.map((head) => head.match(/^Message-ID: <([^>]+)>$/im)?.[1]);
      for (const id of ids) expect(id).toMatch(/@mail\.example\.org$/);
      expect(ids[0]).not.toBe(ids[1]);
    } finally {
      await smtp.close();
    }
  });

  it("builds every mail's HTML from the shared layout, member text escaped; the reset mail names its step once (issue 26 item 8)", () => {
    const name = "<b>Ada</b> & co";
    const event = { id: 7, title: "Dawn <sit>", starts_at: "2030-06-01T05:00:00Z", time_zone: "Europe/Berlin", online_url: null, place: "Hall <3>" };
    const member = { name, email: "ada@example.org", time_zone: "Europe/Berlin" };
    const mails = [
      emailChangeMail(name, "http://localhost:3000/settings/email?token=abc"),
      ...[promotedMail, changedMail, cancelledMail].map((m) => m("http://localhost:3000", event, member)),
      reminderMail("http://localhost:3000", event, { ...member, id: "m1" }),
    ];
    for (const m of mails) {
      expect(m.html.startsWith('<!DOCTYPE html><html lang="en">'), m.subject).toBe(true);
      expect(m.html).toContain("Inner Peace. Outer Strength.</p>");
      expect(m.html).toContain("Hello &lt;b&gt;Ada&lt;/b&gt; &amp; co,");
      expect(m.html).not.toContain("<b>Ada</b>");
      expect(m.text).toContain("Hello <b>Ada</b> & co,");
    }
    expect(mails[0].html).toContain('href="http://localhost:3000/settings/email?token=abc"');
    expect(mails[1].html).toContain("Dawn &lt;sit&gt;");
    expect(mails[1].html).toContain('href="http://localhost:3000/events/7"');

    const reset = passwordResetMail("Ada", "http://localhost:3000/reset-password?token=abc");
    expect(reset.text.split("Choose a new password")).toHaveLength(2);
    expect(reset.html.split("Choose a new password")).toHaveLength(2);
  });

  it("without SMTP_URL writes each mail as an .eml file with a text and an HTML part", async () => {
    const local = await createTestSite();
    try {
      await enqueueMail(local.services.db, mail("eml@example.org", { text: "The plain part.", html: "<p>The <em>HTML</em> part.</p>" }));
      expect((await deliverQueuedMail(local.services)).sent).toBe(1);
      const dir = path.join(local.services.env.DATA_DIR, "outbox");
      const files = fs.readdirSync(dir).filter((f) => f.endsWith(".eml"));
      expect(files).toHaveLength(1);
      const raw = mailText(fs.readFileSync(path.join(dir, files[0]), "utf8"));
      expect(raw).toMatch(/^To: eml@example.org$/m);
      expect(raw).toMatch(/^Content-Type: multipart\/alternative/m);
      expect(raw).toMatch(/Content-Type: text\/plain[^]*The plain part\./);
      expect(raw).toMatch(/Content-Type: text\/html[^]*<p>The <em>HTML<\/em> part\.<\/p>/);
      expect((await outbox(local))[0].sent_at).not.toBeNull();
    } finally {
      await local.destroy();
    }
  });

  it("wakes the running worker when a mail is queued in this process, without waiting for its poll", async () => {
    const smtp = await startSmtpServer();
    const local = await createTestSite({ smtpUrl: smtp.url });
    const stop = startOutboxWorker(local.services, { pollMs: 60 * 60_000 });
    try {
      await enqueueMail(local.services.db, mail("first@example.org"));
      await expect.poll(() => smtp.received.length).toBe(1);
      // The first may have gone with the worker's start-up round; this one only a nudge can send.
      await enqueueMail(local.services.db, mail("second@example.org"));
      await expect.poll(() => smtp.received.length).toBe(2);
    } finally {
      await stop();
      await local.destroy();
      await smtp.close();
    }
  });
});

describe(`two app instances on one ${ENGINE} database`, () => {
  it("deliver 200 queued mails concurrently, each exactly once", { timeout: 90_000 }, async () => {
    const smtp = await startSmtpServer();
    const first = await createTestSite({ smtpUrl: smtp.url });
    const second = await first.another();
    try {
      const t0 = new Date();
      await first.services.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 200; i++) await enqueueMail(trx, mail(`many-${i}@example.org`), t0);
      });
      const [a, b] = await Promise.all([
        createOutboxWorker(first.services, { batchSize: 10 }).drain(t0),
        createOutboxWorker(second.services, { batchSize: 10 }).drain(t0),
      ]);
      expect(a.sent + b.sent).toBe(200);
      // Both took part: the claim, not luck of timing, kept them apart.
      if (ENGINE === "postgres") expect(Math.min(a.sent, b.sent)).toBeGreaterThan(0);
      const addresses = smtp.received.map((m) => m.to.join(","));
      expect(addresses).toHaveLength(200);
      expect(new Set(addresses).size).toBe(200);
      const rows = await first.services.db.selectFrom("mail_outbox").select(["sent_at", "attempts"]).execute();
      expect(rows.every((r) => r.sent_at !== null && r.attempts === 1)).toBe(true);
    } finally {
      await second.close();
      await first.destroy();
      await smtp.close();
    }
  });
});

describe(`an SMTP outage over HTTP on ${ENGINE}`, () => {
  let site: TestSite;
  let http: Awaited<ReturnType<typeof startSite>>;
  let down: Awaited<ReturnType<typeof downSmtpUrl>>;
  const received: ReceivedMail[] = [];
  beforeAll(async () => {
    down = await downSmtpUrl();
    site = await createTestSite({ smtpUrl: down.url });
    http = await startSite(site);
  }, 60_000);
  afterAll(async () => {
    await http.close();
    await site.destroy();
  });

  it("subscribing succeeds while SMTP is down; the mail goes out once when it is back", { timeout: 60_000 }, async () => {
    const res = await http.post("/newsletter", { email: "outage@example.org" });
    expect(res.status).toBe(200);
    expect(await readable(res)).toContain(SUBSCRIBE_MESSAGE);

    const worker = createOutboxWorker(site.services);
    const t = new Date(Date.now() + 1000);
    expect(await worker.runOnce(t)).toMatchObject({ claimed: 1, retrying: 1 });
    const [pending] = await outbox(site);
    expect(pending).toMatchObject({ to_address: "outage@example.org", kind: "newsletter-confirm", attempts: 1, sent_at: null, failed_at: null });
    expect(pending.last_error).toMatch(/ECONNREFUSED|connect/i);

    const smtp = await startSmtpServer({ port: down.port, received });
    try {
      expect((await worker.runOnce(seconds(t, 29))).claimed).toBe(0);
      expect(await worker.runOnce(seconds(t, 30))).toMatchObject({ claimed: 1, sent: 1 });
      expect((await worker.runOnce(seconds(t, 86_400))).claimed).toBe(0);
      expect(received.map((m) => m.to)).toEqual([["outage@example.org"]]);
      const head = received[0].raw.replace(/\r?\n[ \t]+/g, " ");
      expect(head).toMatch(/^List-Unsubscribe: <http:\/\/localhost:3000\/newsletter\/unsubscribe\?token=[A-Za-z0-9_-]+>/m);
      expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    } finally {
      await smtp.close();
    }
  });

  it("refuses a malformed or header-splitting address with the form's message and queues nothing", async () => {
    const before = (await outbox(site)).length;
    for (const email of ["not-an-address", "a@b.example\r\nBcc: x@evil.example", "Ada <ada@example.org>"]) {
      const res = await http.post("/newsletter", { email });
      expect(res.status).toBe(400);
      expect(await readable(res)).toContain("Please enter a valid email address");
    }
    expect((await outbox(site)).length).toBe(before);
  });

  it("accepts the RFC 8058 one-click unsubscribe posted from the mail provider's origin", async () => {
    await http.post("/newsletter", { email: "one-click@example.org" });
    const { token } = await site.services.db
      .selectFrom("newsletter_subscription")
      .select("token")
      .where("email", "=", "one-click@example.org")
      .executeTakeFirstOrThrow();
    const res = await fetch(`${http.base}/newsletter/unsubscribe?token=${token}`, {
      method: "POST",
      headers: { origin: "https://mail.provider.example", "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status).toBe(200);
    const { status } = await site.services.db
      .selectFrom("newsletter_subscription")
      .select("status")
      .where("email", "=", "one-click@example.org")
      .executeTakeFirstOrThrow();
    expect(status).toBe("unsubscribed");
    // Other writes from another origin are still refused.
    const forged = await fetch(`${http.base}/newsletter`, {
      method: "POST",
      headers: { origin: "https://mail.provider.example", "content-type": "application/x-www-form-urlencoded" },
      body: "email=forged@example.org",
    });
    expect(forged.status).toBe(403);
  });
});
