import { CalendarPlus } from "~/components/ui/icons/calendar-plus";
import { Rss } from "~/components/ui/icons/rss";
import type { Route } from "./+types/events";
import { ProsePage, ProseSection, TextLink } from "~/components/layout/prose-page";
import { useViewer } from "~/components/layout/use-viewer";
import { ButtonLink } from "~/components/ui/button";
import { servicesContext, viewerContext } from "~/.server/context";
import { eventLists } from "~/.server/domain/events/event-read-model";
import { mayHostEvents } from "~/.server/domain/events/event-service";
import { EventCard } from "~/features/events/event-card";

export const meta: Route.MetaFunction = () => [
  { title: "Events · Inner Peace. Outer Strength." },
  {
    name: "description",
    content: "Online sits, group runs, workshops and retreats hosted by the community's advisors. See what is coming up, RSVP and add events to your calendar.",
  },
];

export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  const [lists, mayHost] = await Promise.all([eventLists(db, viewer), mayHostEvents(db, viewer)]);
  return { ...lists, mayHost };
}

const KINDS = [
  {
    name: "Online sits",
    text: "Guided or silent meditation over video, usually 20 to 45 minutes, open to every level. Cameras optional; beginners welcome.",
  },
  {
    name: "Group runs",
    text: "Meet-ups in a park or on a trail at a conversational pace, with a few quiet minutes before and after. Nobody is left behind.",
  },
  {
    name: "Workshops",
    text: "A focused session on one skill, online or in person: breath work, mobility, journaling, Stoic practice, leading a small team.",
  },
  {
    name: "Retreats",
    text: "A day or a weekend that brings both paths together: morning meditation, hard training in the afternoon, conversation in the evening.",
  },
];

export default function EventsPage({ loaderData }: Route.ComponentProps) {
  const member = useViewer() !== null;
  const { upcoming, past, mayHost } = loaderData;
  return (
    <ProsePage title="Events" lead={<p>Practice is easier side by side. Events bring members together to sit, run, learn and train, online and in person.</p>}>
      <div className="mb-8 flex flex-wrap gap-3">
        {mayHost ? (
          <ButtonLink to="/events/new" variant="monk">
            <CalendarPlus aria-hidden="true" className="mr-2 size-4" />
            Create Event
          </ButtonLink>
        ) : null}
        <ButtonLink to="/events.ics" reloadDocument variant="outline">
          <Rss aria-hidden="true" className="mr-2 size-4" />
          Subscribe to the calendar feed
        </ButtonLink>
      </div>

      <ProseSection id="upcoming" title="Upcoming events" plain>
        {upcoming.length > 0 ? (
          <div className="grid gap-6 md:grid-cols-2">
            {upcoming.map((event) => (
              <EventCard key={event.id} event={event} />
            ))}
          </div>
        ) : (
          <div className="rounded-xl border border-dashed border-line bg-white px-6 py-8 text-center">
            <p className="text-lg font-semibold">No upcoming events are scheduled yet.</p>
            <p className="mx-auto mt-2 max-w-prose leading-7 text-muted">
              To hear about the first ones, subscribe to the{" "}
              <a href="#newsletter-email" className="font-medium text-monk-strong underline underline-offset-4 hover:text-monk">
                newsletter in the footer
              </a>
              . Meanwhile, bring your questions to the <TextLink to="/council">Council</TextLink>, where members and verified advisors answer.
            </p>
          </div>
        )}
      </ProseSection>

      {past.length > 0 ? (
        <ProseSection id="past" title="Past events" plain>
          <div className="grid gap-6 md:grid-cols-2">
            {past.map((event) => (
              <EventCard key={event.id} event={event} past />
            ))}
          </div>
        </ProseSection>
      ) : null}

      <ProseSection id="kinds" title="What we gather for">
        <ul>
          {KINDS.map((kind) => (
            <li key={kind.name}>
              <strong>{kind.name}.</strong> {kind.text}
            </li>
          ))}
        </ul>
      </ProseSection>

      <ProseSection id="rsvp" title="How RSVPs and calendar files work">
        <p>Every event lists:</p>
        <ul>
          <li>its title and a description of what to expect and what to bring;</li>
          <li>its start and end, with the time zone, so nobody turns up an hour early;</li>
          <li>where it happens: a link for online events, a meeting place for the others;</li>
          <li>how many places it has, and who hosts it.</li>
        </ul>
        <p>
          Signed-in members answer <strong>Going</strong> or <strong>Not going</strong>, and can change their answer later. An RSVP of Going holds a place while
          places are left; once an event is full, no new places are given. If your plans change, switch to Not going so someone else can come.
        </p>
        <p>
          Each event also offers a calendar file (.ics). Open it to add the event, with its correct time and place, to Google Calendar, Apple Calendar, Outlook
          or any other calendar app.
        </p>
        {member ? (
          <p>You are signed in, so you can RSVP as soon as an event is listed.</p>
        ) : (
          <p>
            You do not need an account to read about events. To RSVP, <TextLink to="/join">join the path</TextLink> or <TextLink to="/signin">sign in</TextLink>
            .
          </p>
        )}
      </ProseSection>

      <ProseSection id="hosts" title="Who hosts">
        <p>
          Events are created by the community's <strong>advisors</strong>, members an admin has verified as leaders on the monk's or the warrior's path, and by
          the site's <strong>admins</strong>. Each event names its host, so you know who is guiding the sit or setting the pace of the run.
        </p>
        <p>
          Events follow the same <TextLink to="/code-of-conduct">Code of Conduct</TextLink> as the rest of the site. At an in-person event, tell the host
          straight away if something is wrong.
        </p>
      </ProseSection>
    </ProsePage>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
