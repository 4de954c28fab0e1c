import { data } from "react-router";
import type { Route } from "./+types/forgot-password";
import { MailLinkRequest } from "~/features/account/mail-link-request";
import { requestContext, servicesContext } from "~/.server/context";
import { requestPasswordReset } from "~/.server/domain/accounts/password-reset";
import { parseForm } from "~/.server/forms";
import { forgotPasswordSchema } from "~/schemas/account";

export const meta: Route.MetaFunction = () => [
  { title: "Forgot password · Inner Peace. Outer Strength." },
  { name: "description", content: "Forgot your password? Enter your email and we will send you a link to choose a new one." },
];

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = await parseForm(request, forgotPasswordSchema);
  if (!parsed.ok) return data({ errors: parsed.errors, message: null }, { status: 400 });
  const result = await requestPasswordReset(context.get(servicesContext), parsed.values.email, context.get(requestContext).clientIp);
  if (!result.ok) return data({ errors: { form: result.message }, message: null }, { status: result.status });
  return { errors: {}, message: result.message };
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
