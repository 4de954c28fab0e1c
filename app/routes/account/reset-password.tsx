import { data, Form, useNavigation, useSearchParams } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/reset-password";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/form-controls";
import { servicesContext } from "~/.server/context";
import { RESET_LINK_INVALID, resetLinkIsUsable, resetPassword } from "~/.server/domain/accounts/password-reset";
import { parseForm } from "~/.server/forms";
import { resetPasswordSchema } from "~/schemas/account";

export const meta: Route.MetaFunction = () => [
  { title: "Choose a new password · Inner Peace. Outer Strength." },
  { name: "description", content: "Choose a new password for your account with the link we sent to your email." },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const usable = await resetLinkIsUsable(context.get(servicesContext), token);
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
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/account").then((m) => m.resetPasswordSchema), [], actionData?.errors);
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="mb-8 text-center font-serif text-4xl font-bold">Choose a new password</h1>
      <Card>
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
          <>
            <CardHeader>
              <CardTitle>This link cannot be used</CardTitle>
              <CardDescription role="alert">{loaderData.linkProblem}</CardDescription>
            </CardHeader>
            <CardFooter>
              <ButtonLink to="/forgot-password" variant="monk">
                Ask for a new link
              </ButtonLink>
            </CardFooter>
          </>
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
                <Button type="submit" variant="monk" className="w-full" disabled={busy}>
                  {busy ? "Saving..." : "Reset Password"}
                </Button>
              </CardFooter>
            </Form>
          </>
        )}
      </Card>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
