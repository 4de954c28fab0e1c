/**
 * One-shot messages that survive a redirect (the sign-in toast), in a short-lived cookie that the
 * root middleware reads once and clears. Only known keys are read back, so the cookie carries no
 * member text.
 */
import { redirect } from "react-router";
import { SUBSCRIBE_MESSAGE } from "./domain/newsletter/newsletter-service";

export const FLASH_COOKIE = "ipos_flash";
export const FLASHES = {
  "signed-in": { title: "Welcome back!", description: "You have been signed in successfully." },
  "signed-out": { title: "Signed out", description: "Come back soon." },
  "account-deleted": { title: "Your account is deleted", description: "What you wrote stays, signed [deleted member]." },
  // The footer's newsletter form posted without JavaScript (issue 26 item 6). Toasts appear only after
  // hydration, so `form` tells the footer to show the same words in its own status line as well.
  "newsletter-subscribed": { title: SUBSCRIBE_MESSAGE, form: "newsletter" },
  "newsletter-invalid-email": { title: "Please enter a valid email address", form: "newsletter" },
  "newsletter-limited": { title: "Too many attempts. Try again later.", form: "newsletter" },
  // A new member's first post caught by spam signals (issue 31): it does not show yet.
  "post-pending": {
    title: "Your post waits for a moderator's approval",
    description: "A new member's first posts with several links or repeated text are checked before they show. You will be told.",
  },
} as const;
export type FlashKey = keyof typeof FLASHES;

export function flashCookie(key: FlashKey, secure: boolean) {
  return `${FLASH_COOKIE}=${key}; Path=/; Max-Age=60; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function clearFlashCookie(secure: boolean) {
  return `${FLASH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function readFlash(request: Request): FlashKey | null {
  const cookie = request.headers.get("cookie") ?? "";
  const match = cookie.match(new RegExp(`(?:^|;\\s*)${FLASH_COOKIE}=([a-z-]+)`));
  const key = match?.[1];
  return key && Object.hasOwn(FLASHES, key) ? (key as FlashKey) : null;
}

/** After a post that waits for approval: back to `to`, with the toast that says why it does not show. */
export function pendingPostRedirect(to: string, secure: boolean) {
  return redirect(to, { headers: { "Set-Cookie": flashCookie("post-pending", secure) } });
}
