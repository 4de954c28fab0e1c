import { data, redirect } from "react-router";
import type { Route } from "./+types/newsletter";
import { requestContext, servicesContext } from "~/.server/context";
import { hit, tryAgainMessage } from "~/.server/rate-limit";
import { subscribe } from "~/.server/domain/newsletter/newsletter-service";
import { parseForm } from "~/.server/forms";
import { newsletterSchema } from "~/schemas/newsletter";

// The footer's form posts here; there is nothing to show on a GET.
export function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = await parseForm(request, newsletterSchema);
  if (!parsed.ok) return data({ error: parsed.errors.email ?? "Please enter a valid email address" }, { status: 400 });
  const services = context.get(servicesContext);
  const limited = await hit(services.db, [
    { key: `newsletter:ip:${context.get(requestContext).clientIp}`, max: 10, windowMs: 60 * 60 * 1000 },
  ]);
  if (!limited.ok) return data({ error: tryAgainMessage(limited.retryMinutes) }, { status: 429 });
  const result = await subscribe(services, parsed.values.email);
  return { message: result.message };
}
