import { data } from "react-router";
import type { Route } from "./+types/newsletter-unsubscribe";
import { servicesContext } from "~/.server/context";
import { findSubscription, INVALID_LINK_MESSAGE, unsubscribe } from "~/.server/domain/newsletter/newsletter-service";
import { SubscriptionLinkCard } from "~/features/newsletter/subscription-link-card";
import { readForm } from "~/.server/forms";

// The route itself says what its button does, never the request's address (see newsletter-confirm.tsx).

export const meta: Route.MetaFunction = () => [
  { title: "Unsubscribe · Inner Peace. Outer Strength." },
  { name: "description", content: "Stop receiving the Inner Peace. Outer Strength. newsletter." },
  { name: "robots", content: "noindex" },
];

// A GET never changes a subscription (mail scanners follow links): it shows a button that posts.
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const subscription = await findSubscription(context.get(servicesContext), token);
  if (!subscription) throw data(INVALID_LINK_MESSAGE, { status: 404 });
  return { token, email: subscription.email, unsubscribed: subscription.status === "unsubscribed" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request).catch(() => new FormData());
  // RFC 8058 one-click unsubscribe posts "List-Unsubscribe=One-Click" to the URL from the mail.
  const token = String(form.get("token") ?? new URL(request.url).searchParams.get("token") ?? "");
  const done = await unsubscribe(context.get(servicesContext), token);
  if (!done) throw data(INVALID_LINK_MESSAGE, { status: 404 });
  return { unsubscribed: true };
}

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { token, email, unsubscribed } = loaderData;
  return <SubscriptionLinkCard mode="unsubscribe" token={token} email={email} done={unsubscribed || actionData?.unsubscribed === true} />;
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
