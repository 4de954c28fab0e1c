import { Menu, X } from "lucide-react";
import { useEffect, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { cn, initialsOf } from "~/lib/utils";

export interface NavViewer {
  name: string;
  handle: string;
  role?: "member" | "moderator" | "admin";
}

const SECTIONS = [
  { to: "/monastery", label: "Monastery" },
  { to: "/battlefield", label: "Battlefield" },
  { to: "/forge", label: "Forge" },
  { to: "/council", label: "Council" },
];

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-md px-3 py-2 text-sm font-medium hover:bg-stone-100",
    isActive ? "text-monk-strong" : "text-stone-700",
  );

function Avatar({ text, className }: { text: string; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex size-9 items-center justify-center rounded-full bg-stone-200 text-sm font-semibold text-stone-800",
        className,
      )}
    >
      {text}
    </span>
  );
}

function AccountMenu({ viewer }: { viewer: NavViewer }) {
  // <details> opens and closes without JavaScript and is announced as a disclosure.
  const location = useLocation();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [location.pathname]);
  return (
    <details className="relative" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary
        className="flex cursor-pointer list-none items-center rounded-full [&::-webkit-details-marker]:hidden"
        aria-label={`Account menu for ${viewer.name}`}
      >
        <Avatar text={initialsOf(viewer.name)} className="bg-monk text-white" />
      </summary>
      <div className="absolute right-0 z-20 mt-2 w-48 rounded-md border border-line bg-white p-1 shadow-lg">
        <p className="truncate px-3 py-2 text-sm font-semibold">{viewer.name}</p>
        <Link to="/dashboard" className="block rounded px-3 py-2 text-sm hover:bg-stone-100">
          Dashboard
        </Link>
        {viewer.role === "admin" ? (
          <Link to="/admin/advisors" className="block rounded px-3 py-2 text-sm hover:bg-stone-100">
            Advisors
          </Link>
        ) : null}
        <Form method="post" action="/signout">
          <button type="submit" className="w-full rounded px-3 py-2 text-left text-sm hover:bg-stone-100">
            Sign Out
          </button>
        </Form>
      </div>
    </details>
  );
}

export function NavigationBar({ viewer }: { viewer: NavViewer | null }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <header className="sticky top-0 z-30 border-b border-line bg-white/95 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 font-serif text-lg font-bold">
          <span aria-hidden="true" className="inline-flex size-8 items-center justify-center rounded-full bg-ink text-white">
            ☯
          </span>
          <span className="hidden sm:inline">Inner Peace. Outer Strength.</span>
          <span className="sm:hidden">IPOS</span>
        </Link>

        <div className="hidden items-center gap-1 md:flex">
          <NavLink to="/" end className={linkClass}>
            Home
          </NavLink>
          {SECTIONS.map((s) => (
            <NavLink key={s.to} to={s.to} className={linkClass}>
              {s.label}
            </NavLink>
          ))}
        </div>

        <div className="flex items-center gap-2">
          {viewer ? (
            <AccountMenu viewer={viewer} />
          ) : (
            <>
              <Link to="/signin" className="hidden rounded-md px-3 py-2 text-sm font-medium hover:bg-stone-100 md:inline-flex">
                Sign In
              </Link>
              <Link
                to="/join"
                className="hidden rounded-md bg-monk px-3 py-2 text-sm font-semibold text-white hover:bg-monk-strong md:inline-flex"
              >
                Join the Path
              </Link>
              <Avatar text="IN" />
            </>
          )}
          <button
            type="button"
            className="inline-flex size-10 items-center justify-center rounded-md hover:bg-stone-100 md:hidden"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
          </button>
        </div>
      </nav>

      <div id="mobile-menu" hidden={!menuOpen} className="border-t border-line bg-white md:hidden">
        <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3">
          <NavLink to="/" end className={linkClass}>
            Home
          </NavLink>
          {SECTIONS.map((s) => (
            <NavLink key={s.to} to={s.to} className={linkClass}>
              {s.label}
            </NavLink>
          ))}
          {viewer ? null : (
            <>
              <NavLink to="/join" className={linkClass}>
                Join the Path
              </NavLink>
              <NavLink to="/signin" className={linkClass}>
                Sign In
              </NavLink>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
