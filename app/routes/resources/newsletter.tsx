import { data, redirect } from "react-router";
import type { Route } from "./+types/newsletter";
import { requestContext, servicesContext } from "~/.server/context";
import { hit, tryAgainMessage } from "~/.server/rate-limit";
import { refuseSubscription, subscribe } from "~/.server/domain/newsletter/newsletter-service";
import { flashCookie, type FlashKey } from "~/.server/flash";
import { parseForm } from "~/.server/forms";
import { safeRedirectTarget } from "~/.server/session";
import { newsletterSchema } from "~/schemas/newsletter";

// The footer's form posts here; there is nothing to show on a GET.
export function loader() {
  return redirect("/");
}

/**
 * A browser's own form post (JavaScript off or not loaded yet) is a navigation and asks for a page
 * (Accept: text/html…); React Router's fetcher asks for data with fetch()'s default Accept (*\/*).
 * The request's own shape decides, not its address (issue 26 item 6).
 */
function wantsPage(request: Request) {
  return /\btext\/html\b/i.test(request.headers.get("accept") ?? "");
}

/**
 * Back to the page the form was on (its hidden `redirectTo`, a same-site path only), at the form,
 * with the answer as a one-shot flash: post, redirect, get, as every other form without JavaScript.
 */
function backToForm(target: FormDataEntryValue | null, flash: FlashKey, secure: boolean) {
  const path = safeRedirectTarget(target, "/").split("#")[0];
  return redirect(`${path}#newsletter`, { status: 303, headers: { "Set-Cookie": flashCookie(flash, secure) } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const page = wantsPage(request);
  const secure = services.env.BASE_URL.startsWith("https://");
  const parsed = await parseForm(request, newsletterSchema);
  const target = parsed.formData.get("redirectTo");
  if (!parsed.ok) {
    refuseSubscription();
    if (page) return backToForm(target, "newsletter-invalid-email", secure);
    return data({ error: parsed.errors.email ?? "Please enter a valid email address" }, { status: 400 });
  }
  const limited = await hit(services.db, [{ key: `newsletter:ip:${context.get(requestContext).clientIp}`, max: 10, windowMs: 60 * 60 * 1000 }]);
  if (!limited.ok) {
    refuseSubscription();
    if (page) return backToForm(target, "newsletter-limited", secure);
    return data({ error: tryAgainMessage(limited.retryMinutes) }, { status: 429 });
  }
  const result = await subscribe(services, parsed.values.email);
  if (page) return backToForm(target, "newsletter-subscribed", secure);
  return { message: result.message };
}
