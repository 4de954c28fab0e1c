import { data } from "react-router";
import type { Route } from "./+types/newsletter-unsubscribe";
import { mailLinkPageMeta } from "~/components/layout/mail-link-page";
import { servicesContext } from "~/.server/context";
import { INVALID_LINK_MESSAGE, unsubscribe } from "~/.server/domain/newsletter/newsletter-service";
import { SubscriptionLinkCard } from "~/features/newsletter/subscription-link-card";
import { linkedSubscription, postedLinkToken } from "~/.server/mail-link-routes";

// The route itself says what its button does, never the request's address (see newsletter-confirm.tsx).

export const meta: Route.MetaFunction = () => mailLinkPageMeta("Unsubscribe", "Stop receiving the Inner Peace. Outer Strength. newsletter.");

// A GET never changes a subscription (mail scanners follow links): it shows a button that posts.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { token, subscription } = await linkedSubscription(request, context.get(servicesContext));
  return { token, email: subscription.email, unsubscribed: subscription.status === "unsubscribed" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const done = await unsubscribe(context.get(servicesContext), await postedLinkToken(request, { oneClick: true }));
  if (!done) throw data(INVALID_LINK_MESSAGE, { status: 404 });
  return { unsubscribed: true };
}

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { token, email, unsubscribed } = loaderData;
  return <SubscriptionLinkCard mode="unsubscribe" token={token} email={email} done={unsubscribed || actionData?.unsubscribed === true} />;
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
