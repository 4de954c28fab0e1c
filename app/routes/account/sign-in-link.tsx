import { data, Form, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/sign-in-link";
import { MailLinkPage, mailLinkPageMeta, MailLinkSubmit, UnusableLink } from "~/components/layout/mail-link-page";
import { CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { SIGN_IN_LINK_INVALID, signInLinkIsUsable, signInWithLink } from "~/.server/domain/accounts/sign-in-link";
import { flashCookie } from "~/.server/flash";
import { parseForm } from "~/.server/forms";
import { linkToken } from "~/.server/mail-link-routes";
import { signInLinkSchema } from "~/schemas/sign-in-link";

export const meta: Route.MetaFunction = () => mailLinkPageMeta("Sign in from your email", "Sign in with the one-time link we sent to your email.");

/**
 * The page a mailed sign-in link opens (ADR 0042): it only reads whether the link can be used, and
 * declares nothing it reads, so the page cache never keeps it; the button signs in (ADR 0007).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const usable = await signInLinkIsUsable(context.get(servicesContext), linkToken(request));
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
  const problem = actionData?.problem ?? loaderData.linkProblem;
  return (
    <MailLinkPage heading="Sign in from your email">
      {problem ? (
        <UnusableLink problem={problem} askAgainAt="/signin/email-link" />
      ) : (
        <>
          <CardHeader>
            <CardTitle>Sign In</CardTitle>
            <CardDescription>The link works once: this button signs you in and uses it up.</CardDescription>
          </CardHeader>
          <Form method="post">
            <input type="hidden" name="token" value={params.get("token") ?? ""} />
            <CardFooter>
              <MailLinkSubmit label="Sign In" busyLabel="Signing in..." />
            </CardFooter>
          </Form>
        </>
      )}
    </MailLinkPage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
