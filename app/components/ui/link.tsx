import { useEffect, type ComponentProps, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router";

// Links to the site's own pages as plain <a> elements, navigated client-side by one click handler on
// the document (ADR 0035). React Router's <Link> runs five hooks per link (location, resolved path,
// href, prefetch, click handler) on the server and again at hydration; a page has 30–120 links, so
// they were the largest part of React Router's share of a signed-in render and of hydration. These
// take a path (every link here names one), write the attributes <Link> writes, and leave the
// navigation to `useLinkNavigation`, which the root layout runs once.

type LinkProps = Omit<ComponentProps<"a">, "href"> & {
  /** A path on this site, "/forge" or "/council?virtue=wisdom#questions". */
  to: string;
  /** Keep the scroll position after the navigation (an "Edit" link that opens a form in place). */
  preventScrollReset?: boolean;
  /** Leave the navigation to the browser (a file to download, such as an .ics calendar). */
  reloadDocument?: boolean;
};

/**
 * A link to a page of this site. `data-discover` is what React Router's <Link> writes so its lazy
 * route discovery fetches the route before the click; `data-client-link` marks it for the handler.
 */
export function Link({ to, preventScrollReset, reloadDocument, ...props }: LinkProps) {
  if (reloadDocument) return <a href={to} {...props} />;
  return <a href={to} data-discover="true" data-client-link="" data-keep-scroll={preventScrollReset ? "" : undefined} {...props} />;
}

/**
 * The line above a page's heading that leads back to the page it belongs to ("Events" above an
 * event). `accent` is the monk colour the Council, the Forge and the events use.
 */
export function ParentLink({ to, accent = false, children }: { to: string; accent?: boolean; children: ReactNode }) {
  return (
    <p className="text-sm">
      <Link to={to} className={accent ? "font-semibold text-monk-strong underline" : "font-semibold underline"}>
        {children}
      </Link>
    </p>
  );
}

type NavLinkProps = Omit<LinkProps, "className"> & {
  /** Active only on this very path, not below it (the home link). */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
};

/** A navigation link that knows whether it names the page shown: `aria-current="page"` as <NavLink>. */
export function NavLink({ to, end = false, className, ...props }: NavLinkProps) {
  const isActive = isActivePath(useLocation().pathname, to, end);
  return (
    <Link to={to} aria-current={isActive ? "page" : undefined} className={typeof className === "function" ? className({ isActive }) : className} {...props} />
  );
}

/** React Router's NavLink rule: the same path, or (unless `end`) a path below it; case does not matter. */
export function isActivePath(pathname: string, to: string, end: boolean): boolean {
  const here = pathname.toLowerCase();
  let target = to.toLowerCase();
  if (target.length > 1 && target.endsWith("/")) target = target.slice(0, -1);
  if (here === target) return true;
  if (end || target === "/") return false;
  return here.startsWith(target) && here.charAt(target.length) === "/";
}

/**
 * Navigates client-side on a click on any `<a data-client-link>`, as <Link> does: only a plain left
 * click that no other handler took, on a link to this site without another target or a download; a
 * link to the page already shown replaces the history entry; `data-keep-scroll` keeps the scroll
 * position. Everything else is the browser's.
 */
export function useLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    function onClick(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[data-client-link]") : null;
      if (!(link instanceof HTMLAnchorElement)) return;
      if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = url.pathname + url.search + url.hash;
      const here = window.location.pathname + window.location.search + window.location.hash;
      void navigate(to, { replace: to === here, preventScrollReset: link.hasAttribute("data-keep-scroll") });
    }
    // React's own listeners sit on the root container, the document, and were added first: a
    // component's onClick runs before this one and can still call preventDefault.
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
