import { useCallback, type MouseEvent } from "react";
import { useNavigate } from "react-router";

/**
 * One click handler, for an element holding many plain `<a data-client-link>` (markup rendered once on
 * the server and reused: reply cards, ADR 0032), that navigates client-side as React Router's <Link>
 * does, without a <Link> (and its hooks) per link. As <Link>: only a plain left click on a link to
 * this site; a modified click (new tab, new window, download), another target or another site is left
 * to the browser, and a link to the page already shown replaces the history entry.
 */
export function useClientLinks() {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[data-client-link]") : null;
      if (!(link instanceof HTMLAnchorElement) || !event.currentTarget.contains(link)) return;
      if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = url.pathname + url.search + url.hash;
      const here = window.location.pathname + window.location.search + window.location.hash;
      void navigate(to, { replace: to === here });
    },
    [navigate],
  );
}
