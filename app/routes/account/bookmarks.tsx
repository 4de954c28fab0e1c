import { data, Form, redirect } from "react-router";
import * as z from "zod/mini";
import type { Route } from "./+types/bookmarks";
import { PageHeader } from "~/components/community/page-header";
import { Pager } from "~/components/community/pager";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { FieldError, FormAlert, Input, Label, Textarea } from "~/components/ui/form-controls";
import { Link } from "~/components/ui/link";
import { servicesContext } from "~/.server/context";
import { bookmarksPage } from "~/.server/domain/bookmarks/bookmark-read-model";
import { addBookmark, removeBookmark, saveBookmark } from "~/.server/domain/bookmarks/bookmark-service";
import { postRefOf } from "~/.server/domain/posts/post-places";
import { readForm } from "~/.server/forms";
import { decodeActivityCursor, INVALID_PAGE_LINK } from "~/.server/pagination";
import { requireViewer, safeRedirectTarget } from "~/.server/session";
import { formatDate } from "~/lib/dates";
import { parseId } from "~/lib/params";
import { BOOKMARK_NOTE_MAX } from "~/lib/limits";
import { bookmarkSchema } from "~/schemas/bookmarks";

export const meta: Route.MetaFunction = () => [{ title: "Bookmarks · Inner Peace. Outer Strength." }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const raw = new URL(request.url).searchParams.get("before");
  const before = raw === null ? null : decodeActivityCursor(raw);
  if (raw !== null && !before) throw data(INVALID_PAGE_LINK, { status: 400 });
  const page = await bookmarksPage(context.get(servicesContext).db, viewer, before);
  return { ...page, paged: before !== null };
}

type ActionResult = { errors: Record<string, string | undefined>; id?: number };

/**
 * Adding and removing come from the Bookmark buttons on post pages (back there after, by
 * `redirectTo`); saving a note and a reminder, from this page. The intent and the post come from the
 * form alone, so a post to /bookmarks.data is decided the same way as the document's.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "save") {
    const id = parseId(form.get("id"));
    if (!id) throw data("Unknown bookmark", { status: 400 });
    const parsed = z.safeParse(bookmarkSchema, { note: form.get("note") ?? "", remindOn: form.get("remindOn") ?? "" });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return data<ActionResult>({ errors: { [String(issue.path[0])]: issue.message }, id }, { status: 400 });
    }
    const saved = await saveBookmark(services, viewer, id, parsed.data);
    if (!saved.ok) return data<ActionResult>({ errors: saved.errors, id }, { status: saved.status });
    return redirect(`/bookmarks#bookmark-${id}`, 303);
  }
  if (intent !== "add" && intent !== "remove") throw data("Unknown action", { status: 400 });
  const post = postRefOf(form.get("kind"), form.get("id"));
  if (!post) throw data("Unknown post", { status: 400 });
  const done = intent === "add" ? await addBookmark(services, viewer, post) : await removeBookmark(services, viewer, post);
  if (!done.ok) return data<ActionResult>({ errors: done.errors }, { status: done.status });
  return redirect(safeRedirectTarget(form.get("redirectTo"), "/bookmarks"), 303);
}

export default function Bookmarks({ loaderData, actionData }: Route.ComponentProps) {
  const { items, older, paged } = loaderData;
  const errorsFor = (id: number) => (actionData?.id === id ? actionData.errors : {});
  return (
    <>
      <PageHeader title="Bookmarks" intro="Posts you kept to read again, with your notes. Only you see them." />
      <div className="mx-auto max-w-4xl px-4 py-8">
        {actionData && actionData.id === undefined ? <FormAlert>{actionData.errors.form}</FormAlert> : null}
        <p className="mb-6 text-sm text-stone-700">
          <Link to="/search?in=bookmarks" className="font-semibold text-monk-strong underline">
            Search your bookmarks
          </Link>
        </p>
        {items.length === 0 ? (
          <p className="text-stone-700">No bookmarks yet. Every post has a Bookmark button: what you keep shows here.</p>
        ) : (
          <ol className="flex flex-col gap-4">
            {items.map((b) => {
              const errors = errorsFor(b.id);
              return (
                <li key={b.id} id={`bookmark-${b.id}`} className="rounded-lg border border-line bg-white p-4">
                  <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
                    <Badge tone="neutral">{b.kindLabel}</Badge>
                    {b.place ? <span>{b.place.where}</span> : null}
                    <span>
                      Kept <time dateTime={b.createdAt}>{formatDate(b.createdAt)}</time>
                    </span>
                  </div>
                  <h2 className="mt-2 text-lg font-semibold">
                    {b.place ? (
                      <Link to={b.place.url} className="hover:underline">
                        {b.place.title}
                      </Link>
                    ) : (
                      <span className="text-muted">This post is no longer available.</span>
                    )}
                  </h2>
                  <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-[1fr_auto]">
                    <input type="hidden" name="intent" value="save" />
                    <input type="hidden" name="id" value={b.id} />
                    <div className="flex flex-col gap-1">
                      <Label htmlFor={`note-${b.id}`}>Note</Label>
                      <Textarea
                        id={`note-${b.id}`}
                        name="note"
                        defaultValue={b.note}
                        maxLength={BOOKMARK_NOTE_MAX}
                        className="min-h-16"
                        aria-invalid={errors.note ? true : undefined}
                        aria-describedby={errors.note ? `note-${b.id}-error` : undefined}
                      />
                      <FieldError id={`note-${b.id}-error`}>{errors.note}</FieldError>
                    </div>
                    <div className="flex flex-col gap-1">
                      <Label htmlFor={`remind-${b.id}`}>Remind me on</Label>
                      <Input
                        id={`remind-${b.id}`}
                        name="remindOn"
                        type="date"
                        defaultValue={b.remindOn ?? ""}
                        aria-invalid={errors.remindOn ? true : undefined}
                        aria-describedby={`remind-${b.id}-help${errors.remindOn ? ` remind-${b.id}-error` : ""}`}
                      />
                      <p id={`remind-${b.id}-help`} className="text-xs text-muted">
                        {b.remindOn && b.reminded ? "Reminded. Choose another day for another reminder." : "At 9:00 your time, in your notifications."}
                      </p>
                      <FieldError id={`remind-${b.id}-error`}>{errors.remindOn}</FieldError>
                    </div>
                    <FormAlert>{errors.form}</FormAlert>
                    <div>
                      <Button type="submit" variant="outline" size="sm">
                        Save Note
                      </Button>
                    </div>
                  </Form>
                  <Form method="post" className="mt-2">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="kind" value={b.kind} />
                    <input type="hidden" name="id" value={b.postId} />
                    <input type="hidden" name="redirectTo" value="/bookmarks" />
                    <Button type="submit" variant="ghost" size="sm">
                      Remove Bookmark
                    </Button>
                  </Form>
                </li>
              );
            })}
          </ol>
        )}
        <Pager
          label="Pages of bookmarks"
          links={{ first: paged ? "/bookmarks" : null, previous: null, next: older ? `/bookmarks?before=${older}` : null, last: null }}
          names={["Newest", "", "Older", ""]}
        />
      </div>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
