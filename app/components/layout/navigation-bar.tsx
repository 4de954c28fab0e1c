import { Menu } from "~/components/ui/icons/menu";
import { X } from "~/components/ui/icons/x";
import { LogIn } from "~/components/ui/icons/log-in";
import { Search } from "~/components/ui/icons/search";
import { useEffect, useRef, useState } from "react";
import { Form, useLocation } from "react-router";
import { Link, NavLink } from "~/components/ui/link";
import { Avatar } from "~/components/community/avatar";
import { cn } from "~/lib/utils";
import { ServerMarkup } from "./server-markup";
import { NotificationBell } from "./notification-bell";
import type { MemberRole } from "~/lib/domain-values";

export interface NavViewer {
  name: string;
  handle: string;
  role?: MemberRole;
  avatar?: string | null;
  /** Unread notifications, and the count as the bell's badge shows it ("99+"), worked out by the server (issue 28). */
  unread?: number;
  unreadLabel?: string;
}

const SECTIONS = [
  { to: "/monastery", label: "Monastery" },
  { to: "/battlefield", label: "Battlefield" },
  { to: "/forge", label: "Forge" },
  { to: "/council", label: "Council" },
];

/**
 * Places the seed does not list in its bar, added after its links so theirs keep their order
 * (ADR 0045). In the top bar they show from 1,024 px, where they fit beside the seed's links.
 */
const MORE = [
  { to: "/challenges", label: "Challenges" },
  { to: "/events", label: "Events" },
];

// In the top bar the links are tighter below 1,280 px, where seven links and the brand share the width.
const linkClasses =
  (padding: string) =>
  ({ isActive }: { isActive: boolean }) =>
    cn("rounded-md py-2 text-sm font-medium hover:bg-stone-100", padding, isActive ? "text-monk-strong" : "text-stone-700");
const linkClass = linkClasses("px-3");
const barLinkClass = linkClasses("px-2 xl:px-3");

const menuItemClass = "block w-full rounded px-3 py-2 text-left text-sm hover:bg-stone-100";

/**
 * The site's search field (issue 30): a plain GET form to /search, the server's markup alone (no
 * code on every page, ADR 0045). `/` anywhere outside a text field brings the focus here (see
 * NavigationBar).
 */
function SiteSearch({ id, className }: { id: string; className?: string }) {
  return (
    <form method="get" action="/search" role="search" aria-label="Search the site" className={cn("relative", className)}>
      <label htmlFor={id} className="sr-only">
        Search
      </label>
      {/* A submit button of its own: the form is sent by keyboard or by this (WCAG H32). */}
      <button
        type="submit"
        aria-label="Search the site"
        className="absolute top-1/2 left-1 flex size-7 -translate-y-1/2 items-center justify-center rounded text-stone-500 hover:text-ink focus-visible:outline-3"
      >
        <Search aria-hidden="true" className="size-4" />
      </button>
      <input
        id={id}
        name="q"
        type="search"
        placeholder="Search"
        maxLength={200}
        data-search-field=""
        className="h-9 w-full rounded-md border border-stone-300 bg-white pr-2 pl-8 text-sm placeholder:text-stone-500 focus-visible:outline-3 focus-visible:outline-offset-1"
      />
    </form>
  );
}

/** Which of the bar's two menus is open: at most one, so on a phone they never cover each other. */
type OpenMenu = "mobile" | "account" | null;

/**
 * A dropdown on <details>: it opens and closes without JavaScript and is announced as a
 * disclosure. With JavaScript the bar owns its state (one menu at a time, Escape, outside clicks).
 */
function DropdownMenu({
  label,
  open,
  onOpenChange,
  opener,
  trigger,
  children,
}: {
  label: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  opener: React.RefObject<HTMLElement | null>;
  trigger: React.ReactNode;
  children: React.ReactNode;
}) {
  const root = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) onOpenChange(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open, onOpenChange]);
  return (
    <details
      ref={root}
      className="relative"
      open={open}
      onToggle={(e) => e.currentTarget.open !== open && onOpenChange(e.currentTarget.open)}
      // The browser opens <details> before its toggle event reaches React; Escape pressed in that
      // gap must still close the menu, so it is handled on the element itself too.
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !e.currentTarget.open) return;
        e.preventDefault();
        e.currentTarget.open = false;
        onOpenChange(false);
        opener.current?.focus();
      }}
    >
      <summary
        ref={opener as React.RefObject<HTMLElement>}
        className="flex cursor-pointer list-none items-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-monk [&::-webkit-details-marker]:hidden"
        aria-label={label}
      >
        {trigger}
      </summary>
      <div className="absolute right-0 z-20 mt-2 w-48 rounded-md border border-line bg-white p-1 shadow-lg">{children}</div>
    </details>
  );
}

/**
 * The visitors' 'IN' placeholder (seed §2). Drawn as a control, an outlined button with a sign-in
 * arrow, not as a grey circle a visitor would take for someone's avatar (ADR 0045).
 */
function SignInMark() {
  return (
    <span className="inline-flex h-9 select-none items-center gap-1 rounded-full border border-stone-300 bg-white px-2 text-sm font-semibold text-stone-800 hover:bg-stone-100">
      <LogIn aria-hidden="true" className="size-4" />
      <span>IN</span>
    </span>
  );
}

/** The site's name and mark, linking home. */
function Brand() {
  return (
    <Link to="/" className="flex min-w-0 items-center gap-2 font-serif font-bold">
      <span aria-hidden="true" className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-ink text-white">
        ☯
      </span>
      {/* The whole name on every screen: on a phone it stacks on two lines rather than becoming
          an acronym nobody has been told. */}
      <span className="text-base leading-tight sm:text-lg">
        Inner Peace.
        <br className="sm:hidden" /> Outer Strength.
      </span>
    </Link>
  );
}

export function NavigationBar({ viewer }: { viewer: NavViewer | null }) {
  const [openMenu, setOpenMenu] = useState<OpenMenu>(null);
  const location = useLocation();
  // A new page or a new viewer (signing in or out swaps the account menu for the visitors' one)
  // starts with every menu closed. Reset while rendering, not in an effect: an effect would first
  // render the new <details> open, and its toggle event would then open it again.
  const menuScope = `${location.pathname}|${viewer?.handle ?? ""}`;
  const [scope, setScope] = useState(menuScope);
  if (scope !== menuScope) {
    setScope(menuScope);
    setOpenMenu(null);
  }
  const toggle = useRef<HTMLButtonElement>(null);
  const accountOpener = useRef<HTMLElement>(null);

  // Escape closes whichever menu is open and gives focus back to the control that opened it.
  useEffect(() => {
    if (!openMenu) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      setOpenMenu(null);
      (openMenu === "mobile" ? toggle.current : accountOpener.current)?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [openMenu]);

  // `/` focuses the search field (issue 30), set up once the page is interactive.
  useEffect(() => {
    let stop: (() => void) | undefined;
    let left = false;
    void import("./search-shortcut").then((m) => {
      if (!left) stop = m.listenForSearchKey();
    });
    return () => {
      left = true;
      stop?.();
    };
  }, []);

  const setAccountOpen = (open: boolean) => setOpenMenu((current) => (open ? "account" : current === "account" ? null : current));

  return (
    <header className="sticky top-0 z-30 border-b border-line bg-white/95 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 xl:gap-4">
        {/* The same on every page: the server's markup, kept by the browser (ADR 0045). */}
        <ServerMarkup id="brand">{import.meta.env.SSR ? <Brand /> : null}</ServerMarkup>

        {/* The links sit in the bar from 1,024 px; below that the brand, the way in and the menu
            toggle take the width, and the menu holds every link (ADR 0045). */}
        <div className="hidden items-center lg:flex xl:gap-1">
          <NavLink to="/" end className={barLinkClass}>
            Home
          </NavLink>
          {SECTIONS.map((s) => (
            <NavLink key={s.to} to={s.to} className={barLinkClass}>
              {s.label}
            </NavLink>
          ))}
          {MORE.map((s) => (
            <NavLink key={s.to} to={s.to} className={barLinkClass}>
              {s.label}
            </NavLink>
          ))}
        </div>

        <div className="flex shrink-0 items-center gap-2">
          <ServerMarkup id="bar-search">{import.meta.env.SSR ? <SiteSearch id="site-search" className="hidden w-32 lg:block xl:w-44" /> : null}</ServerMarkup>
          {/* The bell is the server's markup (no code on every page); the live client updates it. */}
          {viewer ? (
            <ServerMarkup id="bell">
              {import.meta.env.SSR ? <NotificationBell unread={viewer.unread ?? 0} label={viewer.unreadLabel ?? ""} /> : null}
            </ServerMarkup>
          ) : null}
          {viewer ? (
            <DropdownMenu
              label={`Account menu for ${viewer.name}`}
              open={openMenu === "account"}
              onOpenChange={setAccountOpen}
              opener={accountOpener}
              trigger={<Avatar member={viewer} />}
            >
              <p className="truncate px-3 py-2 text-sm font-semibold">{viewer.name}</p>
              <Link to="/dashboard" className={menuItemClass}>
                Dashboard
              </Link>
              <Link to={`/members/${viewer.handle}`} className={menuItemClass}>
                Profile
              </Link>
              <Link to="/bookmarks" className={menuItemClass}>
                Bookmarks
              </Link>
              <Link to="/settings" className={menuItemClass}>
                Settings
              </Link>
              {MORE.map((s) => (
                <Link key={s.to} to={s.to} className={menuItemClass}>
                  {s.label}
                </Link>
              ))}
              {viewer.role !== "member" ? (
                <Link to="/review" className={menuItemClass}>
                  Review
                </Link>
              ) : null}
              {viewer.role === "admin" ? (
                <Link to="/admin/advisors" className={menuItemClass}>
                  Advisors
                </Link>
              ) : null}
              <Form method="post" action="/signout">
                <button type="submit" className={menuItemClass}>
                  Sign Out
                </button>
              </Form>
            </DropdownMenu>
          ) : (
            <>
              <Link to="/signin" className="hidden rounded-md px-2 py-2 text-sm font-medium hover:bg-stone-100 md:inline-flex xl:px-3">
                Sign In
              </Link>
              <Link to="/join" className="hidden rounded-md bg-monk px-3 py-2 text-sm font-semibold text-white hover:bg-monk-strong md:inline-flex">
                Join the Path
              </Link>
              {/* The seed's 'IN' placeholder is a real control: it offers the two ways in. */}
              <DropdownMenu label="Sign in or join" open={openMenu === "account"} onOpenChange={setAccountOpen} opener={accountOpener} trigger={<SignInMark />}>
                <Link to="/signin" className={menuItemClass}>
                  Sign In
                </Link>
                <Link to="/join" className={menuItemClass}>
                  Join the Path
                </Link>
              </DropdownMenu>
            </>
          )}
          <button
            ref={toggle}
            type="button"
            className="inline-flex size-10 items-center justify-center rounded-md hover:bg-stone-100 lg:hidden"
            aria-expanded={openMenu === "mobile"}
            aria-controls="mobile-menu"
            aria-label={openMenu === "mobile" ? "Close menu" : "Open menu"}
            onClick={() => setOpenMenu((current) => (current === "mobile" ? null : "mobile"))}
          >
            {openMenu === "mobile" ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
          </button>
        </div>
      </nav>

      <div id="mobile-menu" hidden={openMenu !== "mobile"} className="border-t border-line bg-white lg:hidden">
        <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3">
          <ServerMarkup id="menu-search">{import.meta.env.SSR ? <SiteSearch id="mobile-search" className="mb-2" /> : null}</ServerMarkup>
          <NavLink to="/" end className={linkClass}>
            Home
          </NavLink>
          {SECTIONS.map((s) => (
            <NavLink key={s.to} to={s.to} className={linkClass}>
              {s.label}
            </NavLink>
          ))}
          {viewer ? (
            // The bell's twin in the menu, kept current by the live client the same way (data-bell).
            <NavLink
              to="/notifications"
              className={linkClass}
              data-bell=""
              aria-label={viewer.unread ? `Notifications (${viewer.unreadLabel} unread)` : "Notifications"}
            >
              Notifications{" "}
              <span data-bell-badge="" hidden={!viewer.unread} className="ml-1 rounded-full bg-warrior px-1.5 text-xs font-bold leading-5 text-white">
                {viewer.unreadLabel}
              </span>
            </NavLink>
          ) : (
            <>
              <NavLink to="/join" className={linkClass}>
                Join the Path
              </NavLink>
              <NavLink to="/signin" className={linkClass}>
                Sign In
              </NavLink>
            </>
          )}
          {MORE.map((s) => (
            <NavLink key={s.to} to={s.to} className={linkClass}>
              {s.label}
            </NavLink>
          ))}
        </div>
      </div>
    </header>
  );
}
