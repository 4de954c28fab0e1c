import { data, Form } from "react-router";
import type { Route } from "./+types/newsletter-token";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { servicesContext } from "~/.server/context";
import { confirmSubscription, findSubscription, unsubscribe } from "~/.server/domain/newsletter/newsletter-service";

type Mode = "confirm" | "unsubscribe";
const modeOf = (request: Request): Mode => (new URL(request.url).pathname.endsWith("/confirm") ? "confirm" : "unsubscribe");

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.mode === "confirm" ? "Confirm subscription" : "Unsubscribe"} · Inner Peace. Outer Strength.` },
  { name: "robots", content: "noindex" },
];

// A GET never changes a subscription (mail scanners follow links): it shows a button that posts.
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const subscription = await findSubscription(context.get(servicesContext), token);
  if (!subscription) throw data("This link is not valid. It may have been replaced by a newer one.", { status: 404 });
  return { mode: modeOf(request), token, email: subscription.email, status: subscription.status };
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const form = await request.formData().catch(() => new FormData());
  // RFC 8058 one-click unsubscribe posts "List-Unsubscribe=One-Click" to the URL from the mail.
  const token = String(form.get("token") ?? url.searchParams.get("token") ?? "");
  const services = context.get(servicesContext);
  const mode = modeOf(request);
  const done = mode === "confirm" ? await confirmSubscription(services, token) : await unsubscribe(services, token);
  if (!done) throw data("This link is not valid. It may have been replaced by a newer one.", { status: 404 });
  return { done: mode };
}

export default function NewsletterToken({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, token, email, status } = loaderData;
  const finished = actionData?.done === mode || (mode === "confirm" ? status === "confirmed" : status === "unsubscribed");
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="sr-only">{mode === "confirm" ? "Confirm your subscription" : "Unsubscribe"}</h1>
      <Card>
        <CardHeader>
          <CardTitle>
            {finished
              ? mode === "confirm"
                ? "You are subscribed"
                : "You are unsubscribed"
              : mode === "confirm"
                ? "Confirm your subscription"
                : "Unsubscribe from the newsletter"}
          </CardTitle>
          <CardDescription>{email}</CardDescription>
        </CardHeader>
        <CardContent>
          <p className="text-stone-700">
            {finished
              ? mode === "confirm"
                ? "Thank you. Weekly wisdom for the mind and the body will reach you at this address."
                : "You will receive no more newsletters at this address."
              : mode === "confirm"
                ? "Confirm that you want to receive the newsletter at this address."
                : "Stop receiving the newsletter at this address."}
          </p>
        </CardContent>
        <CardFooter className="gap-3">
          {finished ? (
            <ButtonLink to="/" variant="outline">
              Return to Home
            </ButtonLink>
          ) : (
            <Form method="post">
              <input type="hidden" name="token" value={token} />
              <Button type="submit" variant={mode === "confirm" ? "monk" : "warrior"}>
                {mode === "confirm" ? "Confirm subscription" : "Unsubscribe"}
              </Button>
            </Form>
          )}
        </CardFooter>
      </Card>
    </div>
  );
}
