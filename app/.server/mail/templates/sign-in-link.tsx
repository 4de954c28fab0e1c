import { renderMail, SITE_NAME } from "./layout";

/** The one-time sign-in link asked for from a locked sign-in (ADR 0042); the name is escaped in HTML. */
export function signInLinkMail(name: string, linkUrl: string) {
  return renderMail({
    subject: "Your sign-in link",
    greeting: `Hello ${name},`,
    intro: [`Someone asked for a link to sign in to your ${SITE_NAME} account without the password.`, "Sign in here (the link works once, for 15 minutes):"],
    action: { label: "Sign in", url: linkUrl },
    outro: ["If this was not you, ignore this mail: no one can use the link without your mailbox, and your password stays as it is."],
  });
}
