import { data } from "react-router";
import type { Route } from "./+types/event-calendar";
import { servicesContext } from "~/.server/context";
import { calendarFile, calendarResponse } from "~/.server/domain/events/event-calendar";
import { calendarEvent } from "~/.server/domain/events/event-read-model";
import { parseId } from "~/lib/params";

/** `/events/{id}/calendar.ics`: one event as a calendar file, past and cancelled ones too. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseId(params.eventId);
  const services = context.get(servicesContext);
  const event = id ? await calendarEvent(services.db, id) : undefined;
  if (!id || !event) throw data("Not found", { status: 404 });
  return calendarResponse(request, calendarFile(services.env.BASE_URL, [event]), {
    "content-disposition": `attachment; filename="event-${id}.ics"`,
  });
}
