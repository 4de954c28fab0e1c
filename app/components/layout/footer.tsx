import { useFetcher, useLocation, useRouteLoaderData } from "react-router";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/form-controls";

const EXPLORE = [
  { to: "/monastery", label: "Monastery" },
  { to: "/battlefield", label: "Battlefield" },
  { to: "/forge", label: "Forge" },
  { to: "/council", label: "Council" },
];
const LEARN = [
  { to: "/manifesto", label: "Our Manifesto" },
  { to: "/ranks", label: "Rank System" },
  { to: "/events", label: "Events" },
  { to: "/faq", label: "FAQ" },
];
const LEGAL = [
  { to: "/privacy", label: "Privacy" },
  { to: "/terms", label: "Terms" },
  { to: "/code-of-conduct", label: "Code of Conduct" },
];

function NewsletterForm() {
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

function LinkList({ title, links }: { title: string; links: { to: string; label: string }[] }) {
  return (
    <div>
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-stone-300">{title}</h2>
      <ul className="flex flex-col gap-2">
        {links.map((l) => (
          <li key={l.to}>
            <Link to={l.to} className="text-sm text-stone-200 hover:text-white hover:underline">
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer() {
  return (
    <footer className="mt-16 bg-stone-900 text-stone-100">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 md:grid-cols-4">
        <div className="md:col-span-1">
          <p className="font-serif text-lg font-bold">Inner Peace. Outer Strength.</p>
          <p className="mt-2 text-sm text-stone-300">
            A digital sanctuary for self-discipline, resilience and purpose.
          </p>
        </div>
        <LinkList title="Explore" links={EXPLORE} />
        <LinkList title="Learn" links={LEARN} />
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-stone-300">Newsletter</h2>
          <p className="mb-3 text-sm text-stone-300">Weekly wisdom for the mind and the body.</p>
          <NewsletterForm />
        </div>
      </div>
      <div className="border-t border-stone-700">
        <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-sm text-stone-300 sm:flex-row sm:items-center sm:justify-between">
          <p>© {new Date().getUTCFullYear()} Inner Peace. Outer Strength.</p>
          <ul className="flex gap-4">
            {LEGAL.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="hover:text-white hover:underline">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
