import { data, Form } from "react-router";
import type { Route } from "./+types/notifications-unsubscribe";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { mailLinkPageMeta } from "~/components/layout/mail-link-page";
import { servicesContext } from "~/.server/context";
import { INVALID_STOP_LINK_MESSAGE, mailStopLink, stopMail } from "~/.server/domain/notifications/digest";
import { linkToken, postedLinkToken } from "~/.server/mail-link-routes";

export const meta: Route.MetaFunction = () => mailLinkPageMeta("Stop notification mail", "Stop mail about a kind of notification.");

// A GET never changes a setting (mail scanners follow links, ADR 0007): it shows a button that posts.
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = linkToken(request);
  const link = await mailStopLink(context.get(servicesContext), token);
  if (!link) throw data(INVALID_STOP_LINK_MESSAGE, { status: 400 });
  return { token, ...link };
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = await postedLinkToken(request, { oneClick: true });
  if (!(await stopMail(context.get(servicesContext), token))) throw data(INVALID_STOP_LINK_MESSAGE, { status: 400 });
  return { stopped: true };
}

export default function NotificationsUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { token, email, subject, stopped } = loaderData;
  const done = stopped || actionData?.stopped === true;
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="sr-only">Stop notification mail</h1>
      <Card>
        <CardHeader>
          <CardTitle>{done ? "Mail stopped" : `Stop mail about ${subject}?`}</CardTitle>
          <CardDescription>{email}</CardDescription>
        </CardHeader>
        <CardContent>
          <p className="text-stone-700">
            {done
              ? `You will get no more mail about ${subject}. They still show under the bell; choose what is mailed in your settings.`
              : `You will still see them under the bell on the site.`}
          </p>
        </CardContent>
        <CardFooter className="gap-3">
          {done ? (
            <ButtonLink to="/settings" variant="outline">
              Notification settings
            </ButtonLink>
          ) : (
            <Form method="post">
              <input type="hidden" name="token" value={token} />
              <Button type="submit" variant="warrior">
                Stop mail
              </Button>
            </Form>
          )}
        </CardFooter>
      </Card>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
