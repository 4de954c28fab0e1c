import { data, Form, redirect } from "react-router";
import { ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/edit-event";
import { Button } from "~/components/ui/button";
import { servicesContext } from "~/.server/context";
import { eventForEditing } from "~/.server/domain/events/event-read-model";
import { cancelEvent, editEvent, manageRefusal } from "~/.server/domain/events/event-service";
import { parseForm, readForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { EventForm } from "~/features/events/event-form";
import { parseId } from "~/lib/params";
import { timeZoneChoices, utcToZoned } from "~/lib/time-zones";
import { eventInput, eventSchema } from "~/schemas/events";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `Edit ${loaderData.title} · Events` : "Event not found" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const id = parseId(params.eventId);
  const { db } = context.get(servicesContext);
  const event = id ? await eventForEditing(db, id) : undefined;
  if (!id || !event) throw data("Not found", { status: 404 });
  const refusal = await manageRefusal(db, viewer, event);
  if (refusal) throw data(refusal, { status: 403 });
  const zone = event.time_zone;
  return {
    id,
    title: event.title,
    cancelled: event.cancelled_at !== null,
    zones: timeZoneChoices(),
    defaults: {
      title: event.title,
      description: event.description,
      path: event.path,
      startsAt: utcToZoned(new Date(event.starts_at), zone),
      endsAt: utcToZoned(new Date(event.ends_at), zone),
      timeZone: zone,
      onlineUrl: event.online_url ?? "",
      place: event.place ?? "",
      capacity: String(event.capacity),
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const id = parseId(params.eventId);
  if (!id) throw data("Not found", { status: 404 });
  const services = context.get(servicesContext);
  const intent = (await readForm(request, { clone: true })).get("intent");
  if (intent === "cancel") {
    const result = await cancelEvent(services, viewer, id);
    if (!result.ok) {
      if (result.status === 404) throw data("Not found", { status: 404 });
      return data({ errors: result.errors }, { status: result.status });
    }
    return redirect(`/events/${id}`);
  }
  if (intent !== "edit") throw data("Unknown action", { status: 400 });
  const parsed = await parseForm(request, eventSchema);
  if (!parsed.ok) return data({ errors: parsed.errors }, { status: 400 });
  const result = await editEvent(services, viewer, id, eventInput(parsed.values));
  if (!result.ok) {
    if (result.status === 404) throw data("Not found", { status: 404 });
    return data({ errors: result.errors }, { status: result.status });
  }
  return redirect(`/events/${id}`);
}

export default function EditEvent({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <ParentLink to={`/events/${loaderData.id}`} accent>
        Back to the event
      </ParentLink>
      <h1 className="mt-2 mb-2 font-serif text-4xl font-bold">Edit Event</h1>
      <p className="mb-8 text-stone-700">Members who are going get a mail with the new details.</p>
      {loaderData.cancelled ? (
        <p className="rounded-md bg-stone-100 p-4">This event was cancelled.</p>
      ) : (
        <>
          <EventForm defaults={loaderData.defaults} zones={loaderData.zones} errors={actionData?.errors} submitLabel="Save Changes" />
          <section aria-labelledby="cancel-heading" className="mt-10 rounded-xl border border-line bg-white p-6">
            <h2 id="cancel-heading" className="font-serif text-2xl font-bold">
              Cancel this event
            </h2>
            <p className="mt-2 text-stone-700">Everyone going gets a mail. The page stays readable, marked as cancelled.</p>
            <Form method="post" className="mt-4">
              <input type="hidden" name="intent" value="cancel" />
              <Button type="submit" variant="warrior">
                Cancel Event
              </Button>
            </Form>
          </section>
        </>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
