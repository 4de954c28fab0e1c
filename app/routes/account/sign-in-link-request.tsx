import type { Route } from "./+types/sign-in-link-request";
import { MailLinkRequest } from "~/features/account/mail-link-request";
import { requestSignInLink } from "~/.server/domain/accounts/sign-in-link";
import { mailLinkAction } from "~/.server/mail-link-routes";

export const meta: Route.MetaFunction = () => [
  { title: "Email me a sign-in link · Inner Peace. Outer Strength." },
  { name: "description", content: "Sign in without your password: enter your email and we will send you a link that signs you in once." },
];

/** A locked sign-in offers this (ADR 0042); the form is the forgot-password one: an address. */
export async function action({ request, context }: Route.ActionArgs) {
  return mailLinkAction(request, context, requestSignInLink);
}

export default function SignInLinkRequest({ actionData }: Route.ComponentProps) {
  return (
    <MailLinkRequest
      heading="Sign in by email"
      title="Email me a sign-in link"
      description="We will mail a link that signs you in once, without your password."
      submitLabel="Email me a sign-in link"
      actionData={actionData}
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
