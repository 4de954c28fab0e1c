import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/email-change-confirm";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { confirmEmailChange, EMAIL_LINK_INVALID, pendingEmailChange } from "~/.server/domain/accounts/settings-service";
import { readForm } from "~/.server/forms";

export const meta: Route.MetaFunction = () => [
  { title: "Confirm your new email address · Inner Peace. Outer Strength." },
  { name: "description", content: "Confirm the new email address for your account with the link we sent to it." },
  { name: "robots", content: "noindex" },
];

// ADR 0007: a GET never changes the account (mail scanners follow links); it shows a button that posts.
// The link is spent once used, so success redirects to a page that needs no token.
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("changed") === "1") return { done: true as const };
  const token = url.searchParams.get("token") ?? "";
  const pending = await pendingEmailChange(context.get(servicesContext), token);
  if (!pending) throw data(EMAIL_LINK_INVALID, { status: 404 });
  return { done: false as const, token, email: pending.email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request).catch(() => new FormData());
  const token = form.get("token");
  // The headers tell the service which session confirms: the member's own stays signed in.
  const result = await confirmEmailChange(context.get(servicesContext), typeof token === "string" ? token : "", request.headers);
  if (!result.ok) throw data(result.errors.form ?? EMAIL_LINK_INVALID, { status: result.status });
  return redirect("/settings/email?changed=1");
}

export default function EmailChangeConfirm({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="sr-only">Confirm your new email address</h1>
      <Card>
        <CardHeader>
          <CardTitle>{loaderData.done ? "Your email address is changed" : "Confirm your new email address"}</CardTitle>
          {loaderData.done ? null : <CardDescription>{loaderData.email}</CardDescription>}
        </CardHeader>
        <CardContent>
          <p className="text-stone-700">
            {loaderData.done
              ? "From now on you sign in with this address. Every other browser signed in to your account is signed out."
              : "Confirm that you want to sign in with this address from now on. Every other browser signed in to your account will be signed out."}
          </p>
        </CardContent>
        <CardFooter className="gap-3">
          {loaderData.done ? (
            <ButtonLink to="/settings" variant="outline">
              Back to Settings
            </ButtonLink>
          ) : (
            <Form method="post">
              <input type="hidden" name="token" value={loaderData.token} />
              <Button type="submit" variant="monk">
                Confirm email address
              </Button>
            </Form>
          )}
        </CardFooter>
      </Card>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
