import { Bell } from "~/components/ui/icons/bell";
import { Link } from "~/components/ui/link";
import { bellLabel } from "~/lib/notifications";

/** The bell's accessible name, which says the count as the badge shows it ("99+"). */
export function bellName(unread: number) {
  return unread > 0 ? `Notifications (${bellLabel(unread)} unread)` : "Notifications";
}

/**
 * The bell in the navigation (issue 28): a link to /notifications with the member's unread count.
 * Rendered by the server only (the navigation wraps it in ServerMarkup), so it adds no code to the
 * scripts every page loads; the live client (public/) keeps it current without a reload by the
 * markup alone: the link is `[data-bell]` and is named by `aria-label` ("Notifications (3 unread)"),
 * the count is the text of `[data-bell-badge]`, which has `hidden` when there is nothing unread.
 * The badge says the number, so the count is never colour alone.
 */
export function NotificationBell({ unread }: { unread: number }) {
  return (
    <Link
      to="/notifications"
      data-bell=""
      aria-label={bellName(unread)}
      className="relative inline-flex size-10 items-center justify-center rounded-md text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-monk"
    >
      <Bell aria-hidden="true" className="size-5" />
      <span
        data-bell-badge=""
        hidden={unread === 0}
        className="absolute right-0 top-0 min-w-5 rounded-full bg-warrior px-1 text-center text-xs font-bold leading-5 text-white"
      >
        {bellLabel(unread)}
      </span>
    </Link>
  );
}
