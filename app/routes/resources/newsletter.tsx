import { data, redirect } from "react-router";
import type { Route } from "./+types/newsletter";
import { servicesContext } from "~/.server/context";
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
  const result = await subscribe(context.get(servicesContext), parsed.values.email);
  return result.ok ? { message: result.message } : data({ error: result.message }, { status: 503 });
}
