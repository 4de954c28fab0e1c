import { renderMail, SITE_NAME } from "./layout";

/** The reset link Better Auth asks us to mail; the member's name is their own text (escaped in HTML). */
export function passwordResetMail(name: string, resetUrl: string) {
  return renderMail({
    subject: "Reset your password",
    greeting: `Hello ${name},`,
    intro: [`Someone asked to reset the password of your ${SITE_NAME} account.`, "Choose a new password here (the link works once, for one hour):"],
    action: { label: "Choose a new password", url: resetUrl },
    outro: ["If this was not you, ignore this mail; your password stays as it is."],
  });
}
