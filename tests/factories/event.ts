import { randomUUID } from "node:crypto";
import type { AppServices, Viewer } from "~/.server/context";
import { createEvent, type EventInput } from "~/.server/domain/events/event-service";
import { member } from "./member";

export interface EventOverrides extends Partial<EventInput> {
  /** Defaults to a new advisor. */
  host?: Viewer;
  /** Defaults to now; the event starts two days after it unless `startsAt` says otherwise. */
  now?: Date;
}

const HOUR = 60 * 60 * 1000;

/** An advisor (a member with an advisor row), as only advisors and admins host events. */
export async function advisor(services: AppServices): Promise<Viewer> {
  const host = await member(services.db);
  await services.db.insertInto("advisor").values({ member_id: host.id, path: "monk", specialty: "Meditation", granted_at: new Date().toISOString() }).execute();
  return host;
}

/** An event created through the domain service, as its host would. */
export async function event(services: AppServices, overrides: EventOverrides = {}) {
  const host = overrides.host ?? (await advisor(services));
  const now = overrides.now ?? new Date();
  const startsAt = overrides.startsAt ?? new Date(now.getTime() + 48 * HOUR);
  const created = await createEvent(
    services,
    host,
    {
      title: overrides.title ?? "Morning sit in the park",
      description: overrides.description ?? "Twenty minutes of silent sitting, then tea.",
      path: overrides.path ?? "monk",
      startsAt,
      endsAt: overrides.endsAt ?? new Date(startsAt.getTime() + HOUR),
      timeZone: overrides.timeZone ?? "Europe/Berlin",
      onlineUrl: overrides.onlineUrl ?? null,
      place: overrides.place === undefined ? "Tiergarten, by the Rose Garden" : overrides.place,
      capacity: overrides.capacity ?? 10,
      submissionKey: randomUUID(),
    },
    now,
  );
  if (!created.ok) throw new Error(`event not created: ${JSON.stringify(created.errors)}`);
  return { id: created.value.id, host };
}
