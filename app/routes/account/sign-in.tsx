import { data, Form, redirect, useNavigation, useSearchParams } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/sign-in";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox, FormAlert, Label, TextField } from "~/components/ui/form-controls";
import { requestContext, servicesContext } from "~/.server/context";
import { signInMember } from "~/.server/domain/accounts/account-service";
import { flashCookie } from "~/.server/flash";
import { parseForm } from "~/.server/forms";
import { safeRedirectTarget } from "~/.server/session";
import { signInSchema } from "~/schemas/account";
import { SIGN_IN_CHECKBOXES } from "~/schemas/fields";

export const meta: Route.MetaFunction = () => [
  { title: "Sign In · Inner Peace. Outer Strength." },
  { name: "description", content: "Sign in to continue your journey." },
];

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const parsed = await parseForm(request, signInSchema, SIGN_IN_CHECKBOXES);
  const email = typeof parsed.raw.email === "string" ? parsed.raw.email.slice(0, 254) : "";
  if (!parsed.ok) return data({ errors: parsed.errors, email }, { status: 400 });
  const result = await signInMember(services, parsed.values, {
    headers: request.headers,
    ip: context.get(requestContext).clientIp,
  });
  // Refused by a limit: the page offers a mailed one-time link to the owner (ADR 0042).
  if (!result.ok) return data({ errors: result.errors, email, locked: result.status === 429 }, { status: result.status });
  const headers = new Headers();
  for (const cookie of result.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", flashCookie("signed-in", services.env.BASE_URL.startsWith("https://")));
  throw redirect(safeRedirectTarget(parsed.formData.get("redirectTo")), { headers });
}

export default function SignIn({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith("/signin");
  const { errors, onSubmit, onChange } = useValidatedForm(
    () => import("~/schemas/account").then((m) => m.signInSchema),
    SIGN_IN_CHECKBOXES,
    actionData?.errors,
  );
  const redirectTo = searchParams.get("redirectTo") ?? "";

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="mb-8 text-center">
        <h1 className="font-serif text-4xl font-bold">Welcome Back</h1>
        <p className="mt-3 text-stone-700">Continue your journey toward inner peace and outer strength.</p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Sign In</CardTitle>
          <CardDescription>Enter your credentials to access your account</CardDescription>
        </CardHeader>
        <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange}>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <CardContent className="flex flex-col gap-5">
            <FormAlert>{errors.form}</FormAlert>
            <TextField name="email" label="Email" type="email" autoComplete="email" defaultValue={actionData?.email} error={errors.email} />
            <TextField name="password" label="Password" type="password" autoComplete="current-password" error={errors.password} />
            <div className="flex items-center justify-between gap-3">
              <div className="flex items-center gap-2">
                <Checkbox id="rememberMe" name="rememberMe" />
                <Label htmlFor="rememberMe" className="font-normal">
                  Remember me
                </Label>
              </div>
              <Link to="/forgot-password" className="text-sm font-medium text-monk-strong underline">
                Forgot password?
              </Link>
            </div>
          </CardContent>
          <CardFooter className="flex-col gap-4">
            <Button type="submit" variant="monk" className="w-full" disabled={busy}>
              {busy ? "Signing in..." : "Sign In"}
            </Button>
            <p className="text-sm text-muted">
              Don't have an account?{" "}
              <Link to="/join" className="font-semibold text-monk-strong underline">
                Join the path
              </Link>
            </p>
          </CardFooter>
        </Form>
        {actionData && "locked" in actionData && actionData.locked ? (
          <Form method="post" action="/signin/email-link" className="border-t border-stone-200 pt-6">
            <input type="hidden" name="email" value={actionData.email} />
            <CardContent>
              <p className="text-sm text-stone-700">Is this your account? We can email you a link that signs you in once, without your password.</p>
            </CardContent>
            <CardFooter>
              <Button type="submit" variant="outline" className="w-full">
                Email me a sign-in link
              </Button>
            </CardFooter>
          </Form>
        ) : null}
      </Card>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
