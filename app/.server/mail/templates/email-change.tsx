import { renderMail, SITE_NAME } from "./layout";

/**
 * The link to the new address that confirms an email change (ADR 0023), in the shared layout like
 * every other mail: it was a bare HTML fragment (issue 26 item 8). The name is the member's own text,
 * escaped in the HTML part by React.
 */
export function emailChangeMail(name: string, confirmUrl: string) {
  return renderMail({
    subject: "Confirm your new email address",
    greeting: `Hello ${name},`,
    intro: [`You asked to use this address for your ${SITE_NAME} account. The link works once, for 24 hours.`],
    action: { label: "Confirm your new email address", url: confirmUrl },
    outro: ["If this was not you, ignore this mail: nothing changes."],
  });
}
