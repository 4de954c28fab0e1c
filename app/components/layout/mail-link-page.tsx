import type { ReactNode } from "react";
import { useNavigation } from "react-router";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";

/**
 * The head of a page that a mailed link opens (a reset or sign-in link, a newsletter or
 * notification mail link): its own title and description, and kept out of search engines, since
 * each such page belongs to one token.
 */
export function mailLinkPageMeta(title: string, description: string) {
  return [{ title: `${title} · Inner Peace. Outer Strength.` }, { name: "description", content: description }, { name: "robots", content: "noindex" }];
}

/** The narrow page a mailed account link opens: its heading above one card. */
export function MailLinkPage({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="mb-8 text-center font-serif text-4xl font-bold">{heading}</h1>
      <Card>{children}</Card>
    </div>
  );
}

/** What a used or expired link shows in place of its form: why, and where to ask for a new one. */
export function UnusableLink({ problem, askAgainAt }: { problem: string; askAgainAt: string }) {
  return (
    <>
      <CardHeader>
        <CardTitle>This link cannot be used</CardTitle>
        <CardDescription role="alert">{problem}</CardDescription>
      </CardHeader>
      <CardFooter>
        <ButtonLink to={askAgainAt} variant="monk">
          Ask for a new link
        </ButtonLink>
      </CardFooter>
    </>
  );
}

/** The link page's one button, disabled and saying what it is doing while its form is sent. */
export function MailLinkSubmit({ label, busyLabel }: { label: string; busyLabel: string }) {
  const busy = useNavigation().state === "submitting";
  return (
    <Button type="submit" variant="monk" className="w-full" disabled={busy}>
      {busy ? busyLabel : label}
    </Button>
  );
}
