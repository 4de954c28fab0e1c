// Live updates (issue 28, item 5; ADR 0057): the bell's count and "2 new replies — show" without a
// reload. A plain file, not part of the bundles every page loads (their budget, ADR 0031); the pages
// work without it. It opens one EventSource a page to /live: with the page's `data-live` channel
// (discussion:ID or question:ID) and, for a signed-in member (the bell is there), their own bell.
// It writes only into markup React leaves alone: the bell (server markup) and a notice it adds.
(() => {
  if (!window.EventSource) return;
  const ITEM = { discussion: "reply", question: "answer" };
  let source = null;
  let url = null;
  let kind = null;
  let pending = [];
  let notice = null;
  // Whether the notice has been on the page long enough for a change of its text to be announced.
  let armed = false;

  const anchor = (id) => `${ITEM[kind]}-${id}`;

  // The badge says the number ("99+" past 99, as the server draws it); the link's name says it too.
  const bell = (unread) => {
    const label = unread > 99 ? "99+" : String(unread);
    for (const badge of document.querySelectorAll("[data-bell-badge]")) {
      if (badge.textContent !== label) badge.textContent = label;
      badge.hidden = unread === 0;
    }
    const name = unread > 0 ? `Notifications (${label} unread)` : "Notifications";
    for (const link of document.querySelectorAll("[data-bell]")) if (link.getAttribute("aria-label") !== name) link.setAttribute("aria-label", name);
  };

  // Reloads the page at the first new post: a discussion's newest replies are on its last page.
  const reveal = () => {
    const search = kind === "discussion" ? "?page=last" : location.search;
    history.replaceState(history.state, "", `${location.pathname}${search}#${anchor(pending[0])}`);
    location.reload();
  };

  // Only writes what changed: this runs on every change to the page (the observer below).
  const show = () => {
    pending = pending.filter((id) => !document.getElementById(anchor(id)));
    const text = pending.length === 0 ? "" : `${pending.length} new ${pending.length === 1 ? ITEM[kind] : kind === "discussion" ? "replies" : "answers"} — show`;
    if (!notice?.isConnected) {
      if (!text) return;
      // A polite live region of the page's own if it has one, else one after the live element; it is
      // added empty and filled a moment later, so screen readers announce the text.
      notice = document.querySelector("[data-live-notice]");
      armed = notice !== null;
      if (!notice) {
        notice = document.createElement("div");
        notice.setAttribute("role", "status");
        notice.dataset.liveAdded = "";
        notice.className = "mt-4";
        document.querySelector("[data-live]")?.after(notice);
        setTimeout(() => {
          armed = true;
          show();
        }, 100);
        return;
      }
    }
    if (!armed) return;
    const button = notice.querySelector("button");
    if ((button?.textContent ?? "") === text) return;
    if (!text) return void notice.replaceChildren();
    if (button) return void (button.textContent = text);
    const created = document.createElement("button");
    created.type = "button";
    created.className =
      "inline-flex items-center justify-center gap-2 rounded-md text-sm font-semibold border border-stone-300 bg-white text-ink hover:bg-stone-100 h-9 px-3 focus-visible:outline-3 focus-visible:outline-offset-2";
    created.textContent = text;
    created.addEventListener("click", reveal);
    notice.replaceChildren(created);
  };

  // One stream for what this page shows now; a client-side navigation to another page opens another.
  const connect = () => {
    const watch = document.querySelector("[data-live]")?.getAttribute("data-live") ?? null;
    const wanted = watch ? `/live?watch=${encodeURIComponent(watch)}` : document.querySelector("[data-bell]") ? "/live" : null;
    if (wanted === url) return;
    source?.close();
    source = null;
    url = wanted;
    kind = watch?.split(":")[0] ?? null;
    pending = [];
    if (notice?.dataset.liveAdded !== undefined) notice.remove();
    else notice?.replaceChildren();
    notice = null;
    if (!url || (watch && !ITEM[kind])) return;
    // A refusal (400, 204, 429, 503) closes it for good on this page; a lost connection is retried
    // by the browser after the server's retry hint.
    source = new EventSource(url);
    source.onmessage = (message) => {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch {
        return;
      }
      if (event.type === "bell") bell(event.unread);
      else if (kind && event.type === ITEM[kind] && !pending.includes(event.id)) {
        pending.push(event.id);
        show();
      }
    };
  };

  connect();
  new MutationObserver(() => {
    connect();
    if (pending.length > 0) show();
  }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-live"] });
})();
