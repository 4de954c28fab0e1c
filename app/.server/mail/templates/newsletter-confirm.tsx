import { renderMail, SITE_NAME } from "./layout";

/** The double opt-in mail (PRODUCT.md §2): a confirm button, and the one-click unsubscribe footer. */
export function newsletterConfirmMail(links: { confirmUrl: string; unsubscribeUrl: string }) {
  return renderMail({
    subject: `Confirm your subscription to ${SITE_NAME}`,
    greeting: "Welcome, seeker.",
    intro: [`Someone (we hope you) asked to receive the ${SITE_NAME} newsletter at this address.`, "Confirm your subscription here:"],
    action: { label: "Confirm subscription", url: links.confirmUrl },
    outro: ["If this was not you, ignore this mail: you will receive nothing more."],
    unsubscribeUrl: links.unsubscribeUrl,
  });
}
