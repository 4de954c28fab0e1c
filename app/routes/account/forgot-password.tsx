import type { Route } from "./+types/forgot-password";
import { MailLinkRequest } from "~/features/account/mail-link-request";
import { requestPasswordReset } from "~/.server/domain/accounts/password-reset";
import { mailLinkAction } from "~/.server/mail-link-routes";

export const meta: Route.MetaFunction = () => [
  { title: "Forgot password · Inner Peace. Outer Strength." },
  { name: "description", content: "Forgot your password? Enter your email and we will send you a link to choose a new one." },
];

export async function action({ request, context }: Route.ActionArgs) {
  return mailLinkAction(request, context, requestPasswordReset);
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  return (
    <MailLinkRequest
      heading="Forgot your password?"
      title="Reset your password"
      description="Enter the email address of your account and we will mail you a link."
      submitLabel="Send Reset Link"
      actionData={actionData}
    />
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
