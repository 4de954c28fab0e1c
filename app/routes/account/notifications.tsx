import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/notifications";
import { Avatar } from "~/components/community/avatar";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { servicesContext } from "~/.server/context";
import { markAllRead, notificationsPage, openNotification, parseNotificationCursor } from "~/.server/domain/notifications/notification-service";
import { readForm } from "~/.server/forms";
import { requireViewer, safeRedirectTarget } from "~/.server/session";
import { formatDate } from "~/lib/dates";
import { notificationText } from "~/lib/notifications";
import { parseId } from "~/lib/params";
import { cn } from "~/lib/utils";

export const meta: Route.MetaFunction = () => [{ title: "Notifications · Inner Peace. Outer Strength." }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const cursor = parseNotificationCursor(new URL(request.url).searchParams.get("after"));
  if (cursor === "invalid") throw data("Invalid page", { status: 400 });
  const page = await notificationsPage(context.get(servicesContext).db, viewer, cursor);
  return {
    unread: page.unread,
    // Worded here, so the kinds' sentences stay out of the page's script.
    items: page.items.map((n) => ({
      id: n.id,
      text: notificationText({ kind: n.kind, actor: n.actor?.name ?? null, others: n.others, title: n.title }),
      actor: n.actor,
      at: n.at,
      read: n.read,
    })),
    older: page.next ? `/notifications?after=${page.next}` : null,
    first: cursor === null,
  };
}

/**
 * Opening a line marks it read and goes to its place; reading the page never changes anything. The
 * intent and the id come from the form alone, so a post to /notifications.data (a client-side
 * submission) is decided the same way as the document's.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  const form = await readForm(request);
  switch (form.get("intent")) {
    case "open": {
      const id = parseId(form.get("id"));
      if (!id) throw data("Unknown notification", { status: 400 });
      const opened = await openNotification(services, viewer, id);
      // Another member's notification is as unknown as one that never was.
      if (!opened.ok) throw data("Not found", { status: 404 });
      return redirect(safeRedirectTarget(opened.value, "/notifications"), 303);
    }
    case "mark-all-read":
      await markAllRead(services, viewer);
      return redirect("/notifications", 303);
    default:
      throw data("Unknown action", { status: 400 });
  }
}

type Line = Route.ComponentProps["loaderData"]["items"][number];

function NotificationLine({ line }: { line: Line }) {
  return (
    <li className={cn("flex gap-3 rounded-lg border p-4", line.read ? "border-line bg-white" : "border-monk/30 bg-monk-soft")}>
      {line.actor ? (
        <Avatar member={{ ...line.actor, handle: line.actor.handle ?? line.actor.name }} size="sm" />
      ) : (
        // What no member did (a rank, a check-in, an event, a moderator) carries the site's mark.
        <span aria-hidden="true" className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-ink text-sm text-white">
          ☯
        </span>
      )}
      <div className="min-w-0 flex-1">
        {/* The line is the button that opens it: a post, since opening marks it read. */}
        <Form method="post">
          <input type="hidden" name="intent" value="open" />
          <input type="hidden" name="id" value={line.id} />
          <button
            type="submit"
            className={cn(
              "cursor-pointer text-left text-monk-strong underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-monk",
              line.read ? "font-normal" : "font-bold",
            )}
          >
            {line.text}
          </button>
        </Form>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted">
          {line.read ? null : <Badge tone="monk">New</Badge>}
          <time dateTime={line.at}>{formatDate(line.at)}</time>
        </p>
      </div>
    </li>
  );
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { unread, items, older, first } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-bold">Notifications</h1>
          <p className="mt-2 text-stone-700">
            What happened around you, newest first.{" "}
            <Link to="/settings#notifications-settings" className="font-semibold text-monk-strong underline">
              Choose what you are told
            </Link>
            .
          </p>
        </div>
        {unread > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="mark-all-read" />
            <Button type="submit" variant="outline">
              Mark all as read
            </Button>
          </Form>
        ) : null}
      </div>
      {items.length === 0 ? (
        <p className="mt-8 text-stone-700">{first ? "No notifications yet." : "No older notifications."}</p>
      ) : (
        <ol className="mt-8 flex flex-col gap-3" aria-label="Notifications, newest first">
          {items.map((line) => (
            <NotificationLine key={line.id} line={line} />
          ))}
        </ol>
      )}
      {older || !first ? (
        <nav aria-label="Notification pages" className="mt-6 flex flex-wrap items-center justify-center gap-2">
          {first ? null : (
            <Link to="/notifications" className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-stone-100">
              Newest notifications
            </Link>
          )}
          {older ? (
            <Link to={older} className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-stone-100">
              Older notifications
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
