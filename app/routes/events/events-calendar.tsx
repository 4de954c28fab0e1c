import type { Route } from "./+types/events-calendar";
import { servicesContext } from "~/.server/context";
import { calendarFile, calendarResponse } from "~/.server/domain/events/event-calendar";
import { feedEvents } from "~/.server/domain/events/event-read-model";

/** `/events.ics`: every upcoming event, for calendar apps to subscribe to. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const events = await feedEvents(services.db);
  return calendarResponse(request, calendarFile(services.env.BASE_URL, events, "Inner Peace. Outer Strength. Events"), {
    "content-disposition": 'inline; filename="events.ics"',
  });
}
