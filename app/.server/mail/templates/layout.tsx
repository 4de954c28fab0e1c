import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";

export const SITE_NAME = "Inner Peace. Outer Strength.";

/**
 * What a mail says, written once: the HTML part (React, so member-provided text is escaped) and the
 * plain-text part are both rendered from it, so the two never drift apart.
 */
export interface MailContent {
  subject: string;
  /** First line, e.g. "Hello Ada,". */
  greeting: string;
  /** Paragraphs before the button; plain text, never HTML. */
  intro: string[];
  action?: { label: string; url: string };
  /** Paragraphs after the button. */
  outro?: string[];
  /** Newsletter mail: the footer offers this link (the same one List-Unsubscribe carries). */
  unsubscribeUrl?: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The look every mail shares, inline as mail clients need it: the page, the card, the site's name, the button. */
export const MAIL_STYLES = {
  body: { margin: 0, padding: "24px 0", backgroundColor: "#f5f1ea", fontFamily: "Georgia, 'Times New Roman', serif", color: "#2b2622" },
  card: { maxWidth: 560, margin: "0 auto", padding: "32px", backgroundColor: "#ffffff", borderRadius: 8 },
  site: { margin: "0 0 24px", fontSize: 14, letterSpacing: "0.08em", textTransform: "uppercase", color: "#8a6d3b" },
  paragraph: { margin: "0 0 16px", fontSize: 16, lineHeight: 1.5 },
  button: { display: "inline-block", padding: "12px 20px", backgroundColor: "#8a6d3b", color: "#ffffff", textDecoration: "none", borderRadius: 4 },
  footer: { maxWidth: 560, margin: "16px auto 0", fontSize: 12, lineHeight: 1.5, color: "#6b625a", textAlign: "center" },
} as const;

const styles = {
  ...MAIL_STYLES,
  fallback: { margin: "0 0 16px", fontSize: 13, lineHeight: 1.5, color: "#6b625a", wordBreak: "break-all" },
} as const;

/** A mail's page: its head, the card with the site's name over `children`, and `footer` below the card. */
export function MailPage({ subject, children, footer }: { subject: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{subject}</title>
      </head>
      <body style={MAIL_STYLES.body}>
        <div style={MAIL_STYLES.card}>
          <p style={MAIL_STYLES.site}>{SITE_NAME}</p>
          {children}
        </div>
        {footer}
      </body>
    </html>
  );
}

function MailLayout({ content }: { content: MailContent }) {
  return (
    <MailPage
      subject={content.subject}
      footer={
        content.unsubscribeUrl ? (
          <p style={styles.footer}>
            You receive this because this address asked for the {SITE_NAME} newsletter. <a href={content.unsubscribeUrl}>Unsubscribe</a>
          </p>
        ) : null
      }
    >
      <p style={styles.paragraph}>{content.greeting}</p>
      {content.intro.map((line, i) => (
        <p key={i} style={styles.paragraph}>
          {line}
        </p>
      ))}
      {content.action ? (
        <>
          <p style={styles.paragraph}>
            <a href={content.action.url} style={styles.button}>
              {content.action.label}
            </a>
          </p>
          <p style={styles.fallback}>
            If the button does not work, open this link: <a href={content.action.url}>{content.action.url}</a>
          </p>
        </>
      ) : null}
      {(content.outro ?? []).map((line, i) => (
        <p key={i} style={styles.paragraph}>
          {line}
        </p>
      ))}
    </MailPage>
  );
}

function renderText(content: MailContent) {
  const blocks = [SITE_NAME, content.greeting, ...content.intro];
  if (content.action) blocks.push(`${content.action.label}:\n${content.action.url}`);
  blocks.push(...(content.outro ?? []));
  if (content.unsubscribeUrl)
    blocks.push(`--\nYou receive this because this address asked for the ${SITE_NAME} newsletter.\nUnsubscribe: ${content.unsubscribeUrl}`);
  return blocks.join("\n\n") + "\n";
}

/** Both parts of a mail, ready for enqueueMail. */
export function renderMail(content: MailContent): RenderedMail {
  return {
    subject: content.subject,
    text: renderText(content),
    html: "<!DOCTYPE html>" + renderToStaticMarkup(<MailLayout content={content} />),
  };
}
