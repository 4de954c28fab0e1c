import { Form } from "react-router";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";

export type SubscriptionLinkMode = "confirm" | "unsubscribe";

const TEXTS = {
  confirm: {
    heading: "Confirm your subscription",
    button: "Confirm subscription",
    ask: "Confirm that you want to receive the newsletter at this address.",
    doneTitle: "You are subscribed",
    done: "Thank you. Weekly wisdom for the mind and the body will reach you at this address.",
    variant: "monk",
  },
  unsubscribe: {
    heading: "Unsubscribe from the newsletter",
    button: "Unsubscribe",
    ask: "Stop receiving the newsletter at this address.",
    doneTitle: "You are unsubscribed",
    done: "You will receive no more newsletters at this address.",
    variant: "warrior",
  },
} as const;

/**
 * The page a newsletter mail link opens (ADR 0007): it names the address and offers one button
 * that posts the token. Which button is the route's choice, passed in as `mode`.
 */
export function SubscriptionLinkCard({ mode, token, email, done }: { mode: SubscriptionLinkMode; token: string; email: string; done: boolean }) {
  const text = TEXTS[mode];
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="sr-only">{mode === "confirm" ? "Confirm your subscription" : "Unsubscribe"}</h1>
      <Card>
        <CardHeader>
          <CardTitle>{done ? text.doneTitle : text.heading}</CardTitle>
          <CardDescription>{email}</CardDescription>
        </CardHeader>
        <CardContent>
          <p className="text-stone-700">{done ? text.done : text.ask}</p>
        </CardContent>
        <CardFooter className="gap-3">
          {done ? (
            <ButtonLink to="/" variant="outline">
              Return to Home
            </ButtonLink>
          ) : (
            <Form method="post">
              <input type="hidden" name="token" value={token} />
              <Button type="submit" variant={text.variant}>
                {text.button}
              </Button>
            </Form>
          )}
        </CardFooter>
      </Card>
    </div>
  );
}
