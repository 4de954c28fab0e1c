import { Link } from "~/components/ui/link";

export interface PageLinks {
  first: string | null;
  previous: string | null;
  next: string | null;
  last: string | null;
}

const linkClass = "rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-stone-100";

/** First / previous / next / last links for keyset pages; absent links are not rendered. */
export function Pager({ label, links, names }: { label: string; links: PageLinks; names: [string, string, string, string] }) {
  const items = [links.first, links.previous, links.next, links.last];
  if (items.every((l) => l === null)) return null;
  return (
    <nav aria-label={label} className="mt-6 flex flex-wrap items-center justify-center gap-2">
      {items.map((href, i) =>
        href ? (
          <Link key={names[i]} to={href} className={linkClass}>
            {names[i]}
          </Link>
        ) : null,
      )}
    </nav>
  );
}
