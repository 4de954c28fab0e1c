import { CONTACT_EMAIL } from "~/lib/site";
import { renderMail, SITE_NAME } from "./layout";

/**
 * The notice to the address an account leaves (issue 25, item 4): if the change was not the member's,
 * this is how they learn of it. Reset links no longer reach this address, so help comes from a person.
 */
export function emailChangedMail(name: string, newAddress: string, when: string) {
  // Whoever reads the old mailbox now (a former employer, a shared inbox) need not learn the new
  // address: its first letter and its domain are enough for the member to recognise it.
  const at = newAddress.lastIndexOf("@");
  const masked = `${newAddress.slice(0, 1)}…${newAddress.slice(at)}`;
  return renderMail({
    subject: "Your email address was changed",
    greeting: `Hello ${name},`,
    intro: [
      `The email address of your ${SITE_NAME} account was changed to ${masked} on ${when}.`,
      "From now on you sign in with the new address. Every other session of the account is signed out, and password reset links sent to this address no longer work.",
    ],
    outro: [`If this was not you, write to us at ${CONTACT_EMAIL} from this address, so that we can give the account back to you.`],
  });
}
