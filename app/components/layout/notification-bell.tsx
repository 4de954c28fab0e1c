import { Icon } from "~/components/ui/icons/icon";
import { Link } from "~/components/ui/link";

/**
 * The bell in the navigation (issue 28): a link to /notifications with the member's unread count.
 * Rendered by the server only (the navigation wraps it in ServerMarkup), so it adds no code to the
 * scripts every page loads; the live client (public/) keeps it current without a reload by the
 * markup alone: the link is `[data-bell]` and is named by `aria-label` ("Notifications (3 unread)"),
 * the count is the text of `[data-bell-badge]`, which has `hidden` when there is nothing unread.
 * The badge says the number, so the count is never colour alone.
 *
 * This module must import only what every page loads anyway (the `core` chunk, vite.config.ts): the
 * navigation imports it, and a module shared with other pages would become a chunk every page
 * loads. So the badge's text ("99+", bellLabel) comes worked out from the root loader, and the bell
 * is drawn here rather than taken from the icons.
 */
export function NotificationBell({ unread, label }: { unread: number; label: string }) {
  return (
    <Link
      to="/notifications"
      data-bell=""
      aria-label={unread > 0 ? `Notifications (${label} unread)` : "Notifications"}
      className="relative inline-flex size-10 items-center justify-center rounded-md text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-monk"
    >
      {/* Drawn after Lucide's bell icon (ISC licence). */}
      <Icon aria-hidden="true" className="size-5">
        <path d="M10.268 21a2 2 0 0 0 3.464 0" />
        <path d="M3.262 15.326A1 1 0 0 0 4 17h16a1 1 0 0 0 .74-1.673C19.41 13.956 18 12.499 18 8A6 6 0 0 0 6 8c0 4.499-1.411 5.956-2.738 7.326" />
      </Icon>
      <span
        data-bell-badge=""
        hidden={unread === 0}
        className="absolute right-0 top-0 min-w-5 rounded-full bg-warrior px-1 text-center text-xs font-bold leading-5 text-white"
      >
        {label}
      </span>
    </Link>
  );
}
