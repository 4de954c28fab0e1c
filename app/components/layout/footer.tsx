import { Link } from "~/components/ui/link";
import { hydrateLater } from "./hydrate-later";
import { LiveClient } from "./live-client";
import { ServerMarkup } from "./server-markup";

// On every page, needed by none to become interactive: its script comes after the page's (ADR 0031).
const NewsletterForm = hydrateLater(() => import("./newsletter-form").then((m) => m.NewsletterForm));

const EXPLORE = [
  { to: "/monastery", label: "Monastery" },
  { to: "/battlefield", label: "Battlefield" },
  { to: "/forge", label: "Forge" },
  { to: "/council", label: "Council" },
  { to: "/members", label: "Members" },
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

/** The brand and the two link lists: the same on every page, so only the server renders them. */
function FooterLinks() {
  return (
    <>
      <div className="md:col-span-1">
        <p className="font-serif text-lg font-bold">Inner Peace. Outer Strength.</p>
        <p className="mt-2 text-sm text-stone-300">A digital sanctuary for self-discipline, resilience and purpose.</p>
      </div>
      <LinkList title="Explore" links={EXPLORE} />
      <LinkList title="Learn" links={LEARN} />
    </>
  );
}

function FooterLegal() {
  return (
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
      {/* The live updates' client (ADR 0057): started once per document, in no bundle. */}
      <LiveClient />
    </div>
  );
}

export function Footer() {
  return (
    <footer className="mt-16 bg-stone-900 text-stone-100">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 md:grid-cols-4">
        {/* Static: the server's markup, kept by the browser (not in the scripts every page loads). */}
        <ServerMarkup id="footer-links">{import.meta.env.SSR ? <FooterLinks /> : null}</ServerMarkup>
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-stone-300">Newsletter</h2>
          <p className="mb-3 text-sm text-stone-300">Weekly wisdom for the mind and the body.</p>
          <NewsletterForm />
        </div>
      </div>
      <div className="border-t border-stone-700">
        <ServerMarkup id="footer-legal">{import.meta.env.SSR ? <FooterLegal /> : null}</ServerMarkup>
      </div>
    </footer>
  );
}
