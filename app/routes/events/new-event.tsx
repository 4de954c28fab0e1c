import { data, redirect } from "react-router";
import { ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/new-event";
import { servicesContext } from "~/.server/context";
import { viewerTimeZone } from "~/.server/domain/events/event-read-model";
import { createEvent, HOSTS_ONLY_MESSAGE, mayHostEvents } from "~/.server/domain/events/event-service";
import { formKey, parseForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { EventForm } from "~/features/events/event-form";
import { timeZoneChoices, utcToZoned } from "~/lib/time-zones";
import { eventInput, newEventSchema } from "~/schemas/events";

export const meta: Route.MetaFunction = () => [{ title: "Create Event · Events" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const { db } = context.get(servicesContext);
  if (!(await mayHostEvents(db, viewer))) throw data(HOSTS_ONLY_MESSAGE, { status: 403 });
  const zone = (await viewerTimeZone(db, viewer)) ?? "UTC";
  // A week from now at 18:00 in the host's zone, as a starting point.
  const day = utcToZoned(new Date(Date.now() + 7 * 24 * 60 * 60 * 1000), zone).slice(0, 10);
  return {
    submissionKey: formKey(),
    zones: timeZoneChoices(),
    defaults: {
      title: "",
      description: "",
      path: "monk" as const,
      startsAt: `${day}T18:00`,
      endsAt: `${day}T19:00`,
      timeZone: zone,
      onlineUrl: "",
      place: "",
      capacity: "20",
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  if (!(await mayHostEvents(services.db, viewer))) return data({ errors: { form: HOSTS_ONLY_MESSAGE } }, { status: 403 });
  const parsed = await parseForm(request, newEventSchema);
  if (!parsed.ok) return data({ errors: parsed.errors }, { status: 400 });
  const result = await createEvent(services, viewer, { ...eventInput(parsed.values), submissionKey: parsed.values.submissionKey });
  if (!result.ok) return data({ errors: result.errors }, { status: result.status });
  return redirect(`/events/${result.value.id}`);
}

export default function NewEvent({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <ParentLink to="/events" accent>
        Events
      </ParentLink>
      <h1 className="mt-2 mb-2 font-serif text-4xl font-bold">Create Event</h1>
      <p className="mb-8 text-stone-700">Times are in the time zone you choose; members see them in their own zone too.</p>
      <EventForm
        defaults={loaderData.defaults}
        zones={loaderData.zones}
        errors={actionData?.errors}
        submissionKey={loaderData.submissionKey}
        submitLabel="Create Event"
      />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
