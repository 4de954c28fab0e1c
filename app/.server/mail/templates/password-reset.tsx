import { renderMail, SITE_NAME } from "./layout";

/** The reset link Better Auth asks us to mail; the member's name is their own text (escaped in HTML). */
export function passwordResetMail(name: string, resetUrl: string) {
  return renderMail({
    subject: "Reset your password",
    greeting: `Hello ${name},`,
    // The button names the step; the sentence before it only says how long the link lasts (it said
    // "Choose a new password" twice, issue 26 item 8).
    intro: [`Someone asked to reset the password of your ${SITE_NAME} account.`, "The link below works once, for one hour."],
    action: { label: "Choose a new password", url: resetUrl },
    outro: ["If this was not you, ignore this mail; your password stays as it is."],
  });
}
