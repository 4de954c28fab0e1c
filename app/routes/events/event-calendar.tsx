import { data } from "react-router";
import type { Route } from "./+types/event-calendar";
import { servicesContext } from "~/.server/context";
import { readsFrom, tag } from "~/.server/cache/page-tags";
import { calendarFile, calendarResponse } from "~/.server/domain/events/event-calendar";
import { findEvent } from "~/.server/domain/events/event-repository";
import { parseId } from "~/lib/params";

/** `/events/{id}/calendar.ics`: one event as a calendar file, past and cancelled ones too. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseId(params.eventId);
  const services = context.get(servicesContext);
  const event = id ? await findEvent(services.db, id) : undefined;
  if (!id || !event) throw data("Not found", { status: 404 });
  readsFrom(tag.event(id), tag.member(event.host_id));
  return calendarResponse(request, calendarFile(services.env.BASE_URL, [event]), {
    "content-disposition": `attachment; filename="event-${id}.ics"`,
  });
}
