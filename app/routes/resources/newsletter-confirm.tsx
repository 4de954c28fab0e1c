import { data } from "react-router";
import type { Route } from "./+types/newsletter-confirm";
import { mailLinkPageMeta } from "~/components/layout/mail-link-page";
import { servicesContext } from "~/.server/context";
import { confirmSubscription, INVALID_LINK_MESSAGE } from "~/.server/domain/newsletter/newsletter-service";
import { SubscriptionLinkCard } from "~/features/newsletter/subscription-link-card";
import { linkedSubscription, postedLinkToken } from "~/.server/mail-link-routes";

// The route itself says what its button does, never the request's address: a form posted by
// JavaScript goes to "/newsletter/confirm.data", and reading the mode from the path once turned
// 'Confirm subscription' into an unsubscription.

export const meta: Route.MetaFunction = () =>
  mailLinkPageMeta("Confirm subscription", "Confirm your subscription to the Inner Peace. Outer Strength. newsletter.");

// A GET never changes a subscription (mail scanners follow links): it shows a button that posts.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { token, subscription } = await linkedSubscription(request, context.get(servicesContext));
  return { token, email: subscription.email, confirmed: subscription.status === "confirmed" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const done = await confirmSubscription(context.get(servicesContext), await postedLinkToken(request, { oneClick: false }));
  if (!done) throw data(INVALID_LINK_MESSAGE, { status: 404 });
  return { confirmed: true };
}

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const { token, email, confirmed } = loaderData;
  return <SubscriptionLinkCard mode="confirm" token={token} email={email} done={confirmed || actionData?.confirmed === true} />;
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
