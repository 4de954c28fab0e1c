import { CalendarDays } from "~/components/ui/icons/calendar-days";
import { MapPin } from "~/components/ui/icons/map-pin";
import { Users } from "~/components/ui/icons/users";
import { Video } from "~/components/ui/icons/video";
import { Link } from "~/components/ui/link";
import { Byline, type Author } from "~/components/community/byline";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { plural } from "~/lib/utils";
import { PATH_LABEL } from "~/lib/paths";

export interface EventSummary {
  id: number;
  title: string;
  excerpt: string;
  path: "monk" | "warrior";
  startsAt: string;
  start: string;
  end: string;
  shownIn: string;
  timeZone: string;
  own: { start: string; end: string } | null;
  onlineUrl: string | null;
  place: string | null;
  capacity: number;
  going: number;
  placesLeft: number;
  host: Author;
  /** The viewer said they are going (upcoming lists of a signed-in member only). */
  viewerGoing?: boolean;
}

/** Start and end in the viewer's zone, with the event's own zone beside them when it differs. */
export function EventTimes({ event }: { event: Pick<EventSummary, "startsAt" | "start" | "end" | "own" | "timeZone" | "shownIn"> }) {
  return (
    <span>
      <time dateTime={event.startsAt}>{event.start}</time> – {event.end}
      {event.own ? (
        <span className="block text-muted">
          {event.own.start} – {event.own.end} in {event.timeZone.replaceAll("_", " ")}, where it is set
        </span>
      ) : null}
    </span>
  );
}

export function placesText(event: Pick<EventSummary, "capacity" | "placesLeft">) {
  return event.placesLeft === 0 ? `Full (${plural(event.capacity, "place")}), waitlist open` : `${plural(event.placesLeft, "place")} left of ${event.capacity}`;
}

/**
 * The same card as a challenge's and the Council's (Card: border, shadow, p-6, a text-lg title),
 * so the site's lists look like one site (issue 26 item 12).
 */
export function EventCard({ event, past = false }: { event: EventSummary; past?: boolean }) {
  return (
    <article aria-labelledby={`event-${event.id}-title`}>
      <Card className="flex h-full flex-col gap-4 p-6">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={event.path}>{PATH_LABEL[event.path]}</Badge>
          {past ? <Badge tone="neutral">Past</Badge> : null}
          {event.viewerGoing ? <Badge tone="neutral">You're going</Badge> : null}
        </div>
        <h3 id={`event-${event.id}-title`} className="text-lg font-semibold">
          <Link to={`/events/${event.id}`} className="underline-offset-4 hover:underline">
            {event.title}
          </Link>
        </h3>
        <p className="flex-1 text-sm text-muted">{event.excerpt}</p>
        <ul className="space-y-2 text-sm text-stone-700">
          <li className="flex gap-2">
            <CalendarDays aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <EventTimes event={event} />
          </li>
          <li className="flex gap-2">
            {event.place ? <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0" /> : <Video aria-hidden="true" className="mt-0.5 size-4 shrink-0" />}
            <span>{event.place ?? "Online"}</span>
          </li>
          {past ? null : (
            <li className="flex gap-2">
              <Users aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>
                {plural(event.going, "member")} going · {placesText(event)}
              </span>
            </li>
          )}
        </ul>
        <Byline author={event.host}>Host</Byline>
      </Card>
    </article>
  );
}
