/**
 * `/` anywhere outside a text field focuses the site's search field that shows (issue 30); where
 * none does (a phone's closed menu), it opens /search, which has its own. Loaded after the page is
 * interactive: no page needs it for its first paint (ADR 0031).
 */
export function listenForSearchKey(): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    event.preventDefault();
    const field = [...document.querySelectorAll<HTMLElement>("[data-search-field]")].find((f) => f.offsetParent);
    if (field) field.focus();
    else window.location.assign("/search");
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}

/** Whether a key press belongs to what has the focus (a field, an editor) rather than to the page. */
function typing(target: EventTarget | null) {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}
