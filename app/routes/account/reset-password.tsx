import { data, Form, useSearchParams } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/reset-password";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { MailLinkPage, mailLinkPageMeta, MailLinkSubmit, UnusableLink } from "~/components/layout/mail-link-page";
import { ButtonLink } from "~/components/ui/button";
import { CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/form-controls";
import { servicesContext } from "~/.server/context";
import { RESET_LINK_INVALID, resetLinkIsUsable, resetPassword } from "~/.server/domain/accounts/password-reset";
import { parseForm } from "~/.server/forms";
import { linkToken } from "~/.server/mail-link-routes";
import { resetPasswordSchema } from "~/schemas/account";

export const meta: Route.MetaFunction = () =>
  mailLinkPageMeta("Choose a new password", "Choose a new password for your account with the link we sent to your email.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const usable = await resetLinkIsUsable(context.get(servicesContext), linkToken(request));
  return { linkProblem: usable ? null : RESET_LINK_INVALID };
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = await parseForm(request, resetPasswordSchema);
  if (!parsed.ok) return data({ errors: parsed.errors, done: false }, { status: 400 });
  const result = await resetPassword(context.get(servicesContext), parsed.values.token, parsed.values.password);
  if (!result.ok) return data({ errors: { form: result.message }, done: false }, { status: 400 });
  return { errors: {}, done: true };
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/account").then((m) => m.resetPasswordSchema), [], actionData?.errors);
  return (
    <MailLinkPage heading="Choose a new password">
      {actionData?.done ? (
        <>
          <CardHeader>
            <CardTitle>Password reset</CardTitle>
            <CardDescription>Your password has been reset and your other sessions are signed out. Sign in with your new password.</CardDescription>
          </CardHeader>
          <CardFooter>
            <ButtonLink to="/signin" variant="monk">
              Sign In
            </ButtonLink>
          </CardFooter>
        </>
      ) : loaderData.linkProblem && !actionData ? (
        <UnusableLink problem={loaderData.linkProblem} askAgainAt="/forgot-password" />
      ) : (
        <>
          <CardHeader>
            <CardTitle>New password</CardTitle>
            <CardDescription>At least 8 characters, with an uppercase letter and a number.</CardDescription>
          </CardHeader>
          <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange}>
            <input type="hidden" name="token" value={params.get("token") ?? ""} />
            <CardContent className="flex flex-col gap-5">
              {errors.form || errors.token ? (
                <p role="alert" className="rounded-md bg-warrior-soft p-3 text-sm font-medium text-warrior-strong">
                  {errors.form ?? "This reset link is invalid or has expired. Ask for a new one."}{" "}
                  <Link to="/forgot-password" className="underline">
                    Ask for a new link
                  </Link>
                </p>
              ) : null}
              <TextField name="password" label="New Password" type="password" autoComplete="new-password" error={errors.password} />
              <TextField name="confirmPassword" label="Confirm Password" type="password" autoComplete="new-password" error={errors.confirmPassword} />
            </CardContent>
            <CardFooter>
              <MailLinkSubmit label="Reset Password" busyLabel="Saving..." />
            </CardFooter>
          </Form>
        </>
      )}
    </MailLinkPage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
