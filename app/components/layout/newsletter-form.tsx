import { useFetcher, useLocation, useRouteLoaderData } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/form-controls";

/**
 * The footer's newsletter box, hydrated after the page (ADR 0031): nothing else waits for it. Until
 * its script arrives the server's form posts without JavaScript, which the newsletter route answers
 * with a redirect back here and its message (issue 26 item 6).
 */
export function NewsletterForm() {
  const fetcher = useFetcher<{ message?: string; error?: string }>();
  const busy = fetcher.state !== "idle";
  const location = useLocation();
  // Posted without JavaScript, the answer comes back as the root's flash (resources/newsletter.tsx).
  const toast = (useRouteLoaderData("root") as { toast?: { title: string; form?: string } | null } | undefined)?.toast;
  const flashed = toast?.form === "newsletter" ? toast.title : "";
  return (
    // While it sends, the button says so with aria-disabled rather than disabled, which would drop
    // the keyboard's focus to <body>; a second submit in that time is not sent.
    <fetcher.Form id="newsletter" method="post" action="/newsletter" className="flex flex-col gap-2" onSubmit={(event) => busy && event.preventDefault()}>
      <Label htmlFor="newsletter-email" className="text-stone-200">
        Your email
      </Label>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <div className="flex flex-col gap-2">
        <Input
          id="newsletter-email"
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          className="border-stone-600 bg-stone-800 text-white placeholder:text-stone-400"
        />
        <Button type="submit" variant="monk" aria-disabled={busy || undefined} className="aria-disabled:opacity-60">
          Begin Your Journey
        </Button>
      </div>
      <p role="status" className="min-h-5 text-sm text-stone-200">
        {fetcher.data?.message ?? fetcher.data?.error ?? flashed}
      </p>
    </fetcher.Form>
  );
}
