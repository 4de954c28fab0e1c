import { CalendarDays } from "~/components/ui/icons/calendar-days";
import { Download } from "~/components/ui/icons/download";
import { MapPin } from "~/components/ui/icons/map-pin";
import { Users } from "~/components/ui/icons/users";
import { Video } from "~/components/ui/icons/video";
import { data, Form, redirect, useNavigation } from "react-router";
import { ParentLink } from "~/components/ui/link";
import type { Route } from "./+types/event";
import { Avatar } from "~/components/community/avatar";
import { Byline } from "~/components/community/byline";
import { SignInPrompt } from "~/components/community/sign-in-prompt";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-controls";
import { servicesContext, viewerContext } from "~/.server/context";
import { eventPage } from "~/.server/domain/events/event-read-model";
import { manageRefusal, rsvp } from "~/.server/domain/events/event-service";
import { requireViewer } from "~/.server/session";
import { readForm } from "~/.server/forms";
import { EventTimes, placesText } from "~/features/events/event-card";
import { parseId } from "~/lib/params";
import { plural } from "~/lib/utils";
import { MemberProse } from "~/components/community/member-prose";
import { proseInMarkupOnly } from "~/.server/hydration-data";
import { StructuredData } from "~/components/community/structured-data";
import { eventStructuredData } from "~/.server/domain/discovery/structured-data";
import { PATH_LABEL } from "~/lib/paths";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        { title: `${loaderData.event.title} · Events` },
        { name: "description", content: `${loaderData.event.start}. ${loaderData.event.description.slice(0, 150)}` },
      ]
    : [{ title: "Event not found" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.eventId);
  const services = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  const event = id ? await eventPage(services.db, id, viewer) : null;
  if (!id || !event) throw data("Not found", { status: 404 });
  return proseInMarkupOnly(context, {
    event,
    canonical: `${services.env.BASE_URL}/events/${id}`,
    structuredData: eventStructuredData(services.env.BASE_URL, event),
    signedIn: viewer !== null,
    mayEdit: !event.cancelled && !event.started && (await manageRefusal(services.db, viewer, { host_id: event.hostId })) === null,
  });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = parseId(params.eventId);
  if (!id) throw data("Not found", { status: 404 });
  const viewer = requireViewer(context, request);
  const answer = (await readForm(request)).get("intent");
  if (answer !== "going" && answer !== "not_going") throw data("Unknown action", { status: 400 });
  const result = await rsvp(context.get(servicesContext), viewer, id, answer);
  if (!result.ok) {
    if (result.status === 404) throw data("Not found", { status: 404 });
    return data({ errors: result.errors }, { status: result.status });
  }
  return redirect(`/events/${id}#rsvp`);
}

function RsvpButton({ intent, label, variant }: { intent: "going" | "not_going"; label: string; variant: "monk" | "outline" }) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" variant={variant} disabled={busy}>
        {label}
      </Button>
    </Form>
  );
}

function Rsvp({ event, signedIn, error }: { event: Route.ComponentProps["loaderData"]["event"]; signedIn: boolean; error?: string }) {
  if (event.cancelled) return <p className="rounded-md bg-warrior-soft p-4 font-medium text-warrior-strong">This event was cancelled.</p>;
  if (event.started)
    return <p className="rounded-md bg-stone-100 p-4">{event.ended ? "This event has ended." : "This event has started, so RSVPs are closed."}</p>;
  if (!signedIn) return <SignInPrompt returnTo={`/events/${event.id}`} action="RSVP" />;
  const mine = event.mine?.status;
  return (
    <div className="flex flex-col gap-3">
      <FormAlert>{error}</FormAlert>
      {mine === "going" ? <p className="font-semibold">You are going.</p> : null}
      {mine === "waitlisted" ? (
        <p className="font-semibold">You are number {event.mine?.waitlistPosition} on the waitlist. If a place opens, you move up and we mail you.</p>
      ) : null}
      {mine === "not_going" ? <p className="font-semibold">You are not going.</p> : null}
      <div className="flex flex-wrap gap-3">
        {mine === "going" || mine === "waitlisted" ? null : event.placesLeft > 0 ? (
          <RsvpButton intent="going" label="Going" variant="monk" />
        ) : (
          <RsvpButton intent="going" label="Join the waitlist" variant="monk" />
        )}
        {mine === "going" ? <RsvpButton intent="not_going" label="Not going" variant="outline" /> : null}
        {mine === "waitlisted" ? <RsvpButton intent="not_going" label="Leave the waitlist" variant="outline" /> : null}
        {mine === undefined ? <RsvpButton intent="not_going" label="Not going" variant="outline" /> : null}
      </div>
    </div>
  );
}

export default function EventPage({ loaderData, actionData }: Route.ComponentProps) {
  const { event, signedIn, mayEdit, structuredData } = loaderData;
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <StructuredData data={structuredData} />
      <ParentLink to="/events" accent>
        Events
      </ParentLink>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <Badge tone={event.path}>{PATH_LABEL[event.path]}</Badge>
        {event.cancelled ? <Badge tone="warrior">Cancelled</Badge> : event.ended ? <Badge tone="neutral">Past</Badge> : null}
      </div>
      <h1 className="mt-3 font-serif text-4xl font-bold">{event.title}</h1>
      <div className="mt-4">
        <Byline author={event.host}>Host</Byline>
      </div>

      <ul className="mt-8 space-y-3 rounded-xl border border-line bg-white p-6">
        <li className="flex gap-3">
          <CalendarDays aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <div>
            <span className="sr-only">When: </span>
            <EventTimes event={event} />
          </div>
        </li>
        {event.place ? (
          <li className="flex gap-3">
            <MapPin aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            <span>
              <span className="sr-only">Place: </span>
              {event.place}
            </span>
          </li>
        ) : null}
        {event.onlineUrl ? (
          <li className="flex gap-3">
            <Video aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            <span>
              Online:{" "}
              <a href={event.onlineUrl} rel="nofollow ugc noopener noreferrer" className="font-medium break-all text-monk-strong underline underline-offset-4">
                {event.onlineUrl}
              </a>
            </span>
          </li>
        ) : null}
        <li className="flex gap-3">
          <Users aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <span data-testid="places">
            Capacity {event.capacity} · {plural(event.going.length, "member")} going · {placesText(event)}
            {event.waitlistLength > 0 ? ` · ${plural(event.waitlistLength, "member")} on the waitlist` : ""}
          </span>
        </li>
      </ul>

      <div className="mt-6 flex flex-wrap gap-3">
        <ButtonLink to={`/events/${event.id}/calendar.ics`} reloadDocument download={`event-${event.id}.ics`} variant="outline">
          <Download aria-hidden="true" className="mr-2 size-4" />
          Download calendar file (.ics)
        </ButtonLink>
        {mayEdit ? (
          <ButtonLink to={`/events/${event.id}/edit`} variant="ghost">
            Edit Event
          </ButtonLink>
        ) : null}
      </div>

      <section aria-labelledby="about" className="mt-10">
        <h2 id="about" className="font-serif text-2xl font-bold">
          About this event
        </h2>
        <MemberProse className="mt-4" html={event.descriptionHtml} />
      </section>

      <section aria-labelledby="rsvp" className="mt-10">
        <h2 id="rsvp" className="scroll-mt-24 font-serif text-2xl font-bold">
          RSVP
        </h2>
        <div className="mt-4">
          <Rsvp event={event} signedIn={signedIn} error={actionData?.errors.form} />
        </div>
      </section>

      <section aria-labelledby="going" className="mt-10">
        <h2 id="going" className="font-serif text-2xl font-bold">
          Who is going
        </h2>
        {event.going.length > 0 ? (
          <ul className="mt-4 flex flex-wrap gap-3" aria-label="Members going">
            {event.going.map((m) => (
              <li key={m.handle} data-member={m.handle} className="flex items-center gap-2 rounded-full border border-line bg-white py-1 pr-3 pl-1 text-sm">
                <Avatar member={m} size="sm" />
                {m.name}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-muted">Nobody yet.</p>
        )}
      </section>
    </article>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
