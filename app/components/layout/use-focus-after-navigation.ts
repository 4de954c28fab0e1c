import { useEffect, useRef } from "react";
import { useLocation, useNavigation } from "react-router";
import type { Focused } from "./focus-target";

/**
 * Keeps keyboard and screen-reader users where they were when a link or a form takes the page away
 * from under their focus (a disabled "Sending..." button, a menu that closes on a new page, a "Join"
 * button that becomes "Check In Today"). When a navigation (a link or a form, not a fetcher) has
 * finished and focus has fallen to <body> (or onto something no longer shown), focus-target.ts puts it:
 * - on the same page, on the element that had focus if it is still shown, else into the nearest of
 *   its former ancestors still shown in <main>: its first field (an Edit that opened a form), else
 *   its first control (the button that replaced the one pressed), else that region itself;
 * - else on the element a new #hash names (a reply just posted), else the page's heading, where a
 *   full page load's reader would start.
 * Focus that something else placed (a success card, a field with an error) is never moved (ADR 0039).
 */
export function useFocusAfterNavigation() {
  const busy = useNavigation().state !== "idle";
  const { pathname, hash, key } = useLocation();
  const last = useRef<Focused | null>(null);
  const wasBusy = useRef(false);

  useEffect(() => {
    function onFocusIn(event: FocusEvent) {
      const chain: Element[] = [];
      for (let node = event.target as Element | null; node && node !== document.body; node = node.parentElement) chain.push(node);
      last.current = { chain, path: location.pathname, hash: location.hash };
    }
    document.addEventListener("focusin", onFocusIn);
    return () => document.removeEventListener("focusin", onFocusIn);
  }, []);

  useEffect(() => {
    const ended = wasBusy.current && !busy;
    wasBusy.current = busy;
    const focused = last.current;
    // Whether focus was lost, and where it goes, is decided after the navigation by a module of its
    // own: none of it is needed for a page to become interactive (issue 13's budget).
    if (ended && focused) void import("./focus-target").then((m) => m.refocus(focused, pathname, hash));
  }, [busy, key, pathname, hash]);
}
