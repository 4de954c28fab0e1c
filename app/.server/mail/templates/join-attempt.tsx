import { renderMail, SITE_NAME } from "./layout";

/**
 * To the owner of an address someone tried to join with (issue 25): the join page says the address
 * is taken, so the owner hears of it too, with the two ways back in if it was them.
 */
export function joinAttemptMail(links: { signInUrl: string; forgotPasswordUrl: string }) {
  return renderMail({
    subject: "Someone tried to join with your email address",
    greeting: "Hello,",
    intro: [
      `Someone just tried to create a new account with this email address. You already have a ${SITE_NAME} account with it, so no new one was made.`,
      "If it was you, sign in here:",
    ],
    action: { label: "Sign in", url: links.signInUrl },
    outro: [
      `Forgot your password? Choose a new one here: ${links.forgotPasswordUrl}`,
      "If it was not you, you can ignore this mail: your account stays as it is.",
    ],
  });
}
