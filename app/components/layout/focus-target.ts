/** The focused element, then its ancestors when it was focused (they may outlive it). */
export interface Focused {
  chain: Element[];
  path: string;
  hash: string;
}

const FIELD = 'textarea,input:not([type="hidden"]),select';
const FOCUSABLE = `a[href],button,summary,[tabindex]:not([tabindex="-1"]),${FIELD}`;

/** Rendered: not hidden, not in a closed <details>, not display:none. */
function shown(element: Element) {
  return typeof element.checkVisibility === "function" ? element.checkVisibility() : element.getClientRects().length > 0;
}

/**
 * Whether focus has been lost: on <body>, or on an element no longer shown. The browser moves focus
 * off a hidden or removed element (a link in a menu that closed) only at its next rendering step.
 */
function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || !shown(active);
}

/** The first shown field in `region`, else its first shown control. */
function controlIn(region: Element) {
  const shownIn = (selector: string) => [...region.querySelectorAll(`:is(${selector}):not(:disabled)`)].find(shown);
  return shownIn(FIELD) ?? shownIn(FOCUSABLE);
}

/** Puts lost focus where useFocusAfterNavigation says (use-focus-after-navigation.ts). */
export function refocus(focused: Focused, pathname: string, hash: string) {
  if (!focusLost()) return;
  const main = document.getElementById("main");
  let target: Element | null | undefined;
  if (focused.path === pathname) {
    const [element, ...ancestors] = focused.chain;
    if (element?.isConnected && shown(element) && element.matches(`:is(${FOCUSABLE}):not(:disabled)`)) target = element;
    else {
      // The nearest former ancestor still shown with some size in the page's content (an emptied
      // action bar has none; the header's menus are not where the member was working).
      const region = ancestors.find((a) => a.isConnected && shown(a) && a.getBoundingClientRect().height > 0);
      if (region && main?.contains(region) && region !== main) target = controlIn(region) ?? region;
    }
  }
  if (!target) {
    const named = hash.length > 1 && hash !== focused.hash ? document.getElementById(hash.slice(1)) : null;
    const field = named ? controlIn(named) : undefined;
    target = named ? (field?.matches(FIELD) ? field : named) : (main?.querySelector("h1") ?? main);
  }
  if (!target) return;
  if (!target.matches(FOCUSABLE)) target.setAttribute("tabindex", "-1");
  (target as HTMLElement).focus({ preventScroll: true });
}
