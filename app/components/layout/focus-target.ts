/** The focused element, then its ancestors when it was focused (they may outlive it). */
export interface Focused {
  chain: Element[];
  path: string;
  hash: string;
}

/**
 * Whether focus has been lost: on <body>, or on an element no longer shown (the browser moves focus
 * off a hidden or removed element only at its next rendering step, after React's effects).
 */
function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || active.getClientRects().length === 0;
}

const FIELD = 'textarea,input:not([type="hidden"]),select';
const FOCUSABLE = `a[href],button,summary,[tabindex]:not([tabindex="-1"]),${FIELD}`;

/** Puts lost focus where useFocusAfterNavigation says (use-focus-after-navigation.ts). */
export function refocus(focused: Focused, pathname: string, hash: string) {
  if (!focusLost()) return;
  const main = document.getElementById("main");
  const region = focused.path === pathname ? focused.chain.find((element) => element.isConnected) : undefined;
  const target =
    (hash !== focused.hash && hash.length > 1 ? document.getElementById(hash.slice(1)) : null) ??
    (region === focused.chain[0] && region?.matches(`:is(${FOCUSABLE}):not(:disabled)`)
      ? region
      : region
        ? (region.querySelector(`:is(${FIELD}):not(:disabled)`) ?? region.querySelector(`:is(${FOCUSABLE}):not(:disabled)`) ?? region)
        : (main?.querySelector("h1") ?? main));
  if (!target) return;
  if (!target.matches(FOCUSABLE)) target.setAttribute("tabindex", "-1");
  (target as HTMLElement).focus({ preventScroll: true });
}
