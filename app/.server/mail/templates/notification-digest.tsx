import { renderToStaticMarkup } from "react-dom/server";
import { MAIL_STYLES, MailPage, SITE_NAME, type RenderedMail } from "./layout";

/**
 * The digest of unread notifications (issue 28, ADR 0058): the lines, each with its link, a link to
 * the whole list, and per kind mailed a link that stops that kind's mail. Its own content and footer
 * (renderMail's has no list and one newsletter footer) in every mail's page and look (MailPage).
 */
export interface DigestMailInput {
  name: string;
  /** All the lines this mail stands for (the subject's number), of which `lines` are listed. */
  total: number;
  lines: ReadonlyArray<{ text: string; url: string }>;
  notificationsUrl: string;
  settingsUrl: string;
  /** One per kind in the mail: "Stop mail about replies in discussions you watch". */
  stops: ReadonlyArray<{ label: string; url: string }>;
  /** Every kind's mail at once (the List-Unsubscribe link). */
  stopAllUrl: string;
}

const styles = {
  ...MAIL_STYLES,
  list: { margin: "0 0 24px", padding: "0 0 0 20px", fontSize: 16, lineHeight: 1.5 },
  item: { margin: "0 0 8px" },
  stop: { margin: "0 0 4px" },
} as const;

export const digestSubject = (total: number) => `${total} new ${total === 1 ? "notification" : "notifications"} on ${SITE_NAME}`;

const more = (input: DigestMailInput) => input.total - input.lines.length;
const WHY = `You receive this because you have unread notifications on ${SITE_NAME} that are mailed to you.`;

function DigestLayout({ input }: { input: DigestMailInput }) {
  return (
    <MailPage
      subject={digestSubject(input.total)}
      footer={
        <div style={styles.footer}>
          <p style={styles.stop}>{WHY}</p>
          {input.stops.map((stop) => (
            <p key={stop.url} style={styles.stop}>
              <a href={stop.url}>{stop.label}</a>
            </p>
          ))}
          <p style={styles.stop}>
            <a href={input.stopAllUrl}>Stop all notification mail</a> · <a href={input.settingsUrl}>Choose what is mailed</a>
          </p>
        </div>
      }
    >
      <p style={styles.paragraph}>Hello {input.name},</p>
      <p style={styles.paragraph}>While you were away:</p>
      <ul style={styles.list}>
        {input.lines.map((line, i) => (
          <li key={i} style={styles.item}>
            <a href={line.url}>{line.text}</a>
          </li>
        ))}
      </ul>
      {more(input) > 0 ? <p style={styles.paragraph}>…and {more(input)} more.</p> : null}
      <p style={styles.paragraph}>
        <a href={input.notificationsUrl} style={styles.button}>
          Open your notifications
        </a>
      </p>
    </MailPage>
  );
}

function renderText(input: DigestMailInput) {
  const lines = input.lines.map((line) => `- ${line.text}\n  ${line.url}`).join("\n");
  const blocks = [SITE_NAME, `Hello ${input.name},`, "While you were away:", lines];
  if (more(input) > 0) blocks.push(`…and ${more(input)} more.`);
  blocks.push(`Open your notifications: ${input.notificationsUrl}`);
  const stops = input.stops.map((stop) => `${stop.label}: ${stop.url}`);
  blocks.push(["--", WHY, ...stops, `Stop all notification mail: ${input.stopAllUrl}`, `Choose what is mailed: ${input.settingsUrl}`].join("\n"));
  return blocks.join("\n\n") + "\n";
}

/** Both parts of the digest, ready for enqueueMail; member text (names, titles) is escaped in HTML by React. */
export function notificationDigestMail(input: DigestMailInput): RenderedMail {
  return {
    subject: digestSubject(input.total),
    text: renderText(input),
    html: "<!DOCTYPE html>" + renderToStaticMarkup(<DigestLayout input={input} />),
  };
}
