import { data, Form, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/sign-in-link";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { SIGN_IN_LINK_INVALID, signInLinkIsUsable, signInWithLink } from "~/.server/domain/accounts/sign-in-link";
import { flashCookie } from "~/.server/flash";
import { parseForm } from "~/.server/forms";
import { signInLinkSchema } from "~/schemas/sign-in-link";

export const meta: Route.MetaFunction = () => [
  { title: "Sign in from your email · Inner Peace. Outer Strength." },
  { name: "description", content: "Sign in with the one-time link we sent to your email." },
  { name: "robots", content: "noindex" },
];

/**
 * The page a mailed sign-in link opens (ADR 0042): it only reads whether the link can be used, and
 * declares nothing it reads, so the page cache never keeps it; the button signs in (ADR 0007).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const usable = await signInLinkIsUsable(context.get(servicesContext), token);
  return { linkProblem: usable ? null : SIGN_IN_LINK_INVALID };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const parsed = await parseForm(request, signInLinkSchema);
  if (!parsed.ok) return data({ problem: SIGN_IN_LINK_INVALID }, { status: 400 });
  const result = await signInWithLink(services, parsed.values.token, request.headers);
  if (!result.ok) return data({ problem: result.message }, { status: 400 });
  const headers = new Headers();
  for (const cookie of result.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", flashCookie("signed-in", services.env.BASE_URL.startsWith("https://")));
  throw redirect("/dashboard", { headers });
}

export default function SignInLink({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const problem = actionData?.problem ?? loaderData.linkProblem;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="mb-8 text-center font-serif text-4xl font-bold">Sign in from your email</h1>
      <Card>
        {problem ? (
          <>
            <CardHeader>
              <CardTitle>This link cannot be used</CardTitle>
              <CardDescription role="alert">{problem}</CardDescription>
            </CardHeader>
            <CardFooter>
              <ButtonLink to="/signin/email-link" variant="monk">
                Ask for a new link
              </ButtonLink>
            </CardFooter>
          </>
        ) : (
          <>
            <CardHeader>
              <CardTitle>Sign In</CardTitle>
              <CardDescription>The link works once: this button signs you in and uses it up.</CardDescription>
            </CardHeader>
            <Form method="post">
              <input type="hidden" name="token" value={params.get("token") ?? ""} />
              <CardFooter>
                <Button type="submit" variant="monk" className="w-full" disabled={busy}>
                  {busy ? "Signing in..." : "Sign In"}
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
