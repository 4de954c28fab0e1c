import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/sign-in-link-request";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert, TextField } from "~/components/ui/form-controls";
import { requestContext, servicesContext } from "~/.server/context";
import { requestSignInLink } from "~/.server/domain/accounts/sign-in-link";
import { readsFrom, tag } from "~/.server/cache/page-tags";
import { parseForm } from "~/.server/forms";
import { forgotPasswordSchema } from "~/schemas/account";

export const meta: Route.MetaFunction = () => [{ title: "Email me a sign-in link · Inner Peace. Outer Strength." }];

/** Nothing here comes from the database: the page changes only with the site itself (the page cache's `site`). */
export function loader() {
  readsFrom(tag.site);
  return null;
}

/** A locked sign-in offers this (ADR 0042); the form is the forgot-password one: an address. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = await parseForm(request, forgotPasswordSchema);
  if (!parsed.ok) return data({ errors: parsed.errors, message: null }, { status: 400 });
  const result = await requestSignInLink(context.get(servicesContext), parsed.values.email, context.get(requestContext).clientIp);
  if (!result.ok) return data({ errors: { form: result.message }, message: null }, { status: result.status });
  return { errors: {}, message: result.message };
}

export default function SignInLinkRequest({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/account").then((m) => m.forgotPasswordSchema), [], actionData?.errors);
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="mb-8 text-center font-serif text-4xl font-bold">Sign in by email</h1>
      <Card>
        <CardHeader>
          <CardTitle>Email me a sign-in link</CardTitle>
          <CardDescription>We will mail a link that signs you in once, without your password.</CardDescription>
        </CardHeader>
        {actionData?.message ? (
          <CardContent>
            <p role="status" className="rounded-md bg-monk-soft p-3 text-sm text-monk-strong">
              {actionData.message}
            </p>
          </CardContent>
        ) : (
          <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange}>
            <CardContent className="flex flex-col gap-5">
              <FormAlert>{errors.form}</FormAlert>
              <TextField name="email" label="Email" type="email" autoComplete="email" error={errors.email} />
            </CardContent>
            <CardFooter>
              <Button type="submit" variant="monk" className="w-full" disabled={busy}>
                {busy ? "Sending..." : "Email me a sign-in link"}
              </Button>
            </CardFooter>
          </Form>
        )}
        <CardFooter>
          <Link to="/signin" className="text-sm font-semibold text-monk-strong underline">
            Back to Sign In
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
