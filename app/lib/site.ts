/**
 * The mailbox the site's pages (terms, privacy, conduct) send people to. `.example` is reserved and
 * never delivers to a stranger; the operator replaces it with the real address before launch.
 */
export const CONTACT_EMAIL = "hello@innerpeace.example";

/** An in-site link inside running text: underlined, so it never relies on colour alone. */
export const TEXT_LINK_CLASS = "font-medium text-monk-strong underline underline-offset-4 hover:text-monk";
/** A mail address in running text; long addresses may break anywhere rather than overflow. */
export const EMAIL_LINK_CLASS = "font-medium break-all text-monk-strong underline underline-offset-4 hover:text-monk";
