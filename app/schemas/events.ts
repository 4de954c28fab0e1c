import * as z from "zod/mini";
import { formatCount } from "~/lib/utils";
import { canonicalTimeZone, zonedToUtc } from "~/lib/time-zones";
import { submissionKeySchema } from "./forum";
import { EVENT_TITLE_MIN, EVENT_TITLE_MAX, EVENT_DESCRIPTION_MAX, EVENT_PLACE_MAX, EVENT_URL_MAX, EVENT_CAPACITY_MAX, NOT_ONE_LINE } from "./fields";
export { EVENT_TITLE_MIN, EVENT_TITLE_MAX, EVENT_DESCRIPTION_MAX, EVENT_PLACE_MAX, EVENT_URL_MAX, EVENT_CAPACITY_MAX } from "./fields";

// The event form, shared by the page (checked before submit) and the action (PRODUCT.md §4).

const text = z.string({ error: (issue) => (issue.input === undefined ? "Required" : "Expected text") });

/** Plain text on one line: a title reaches mail subjects and calendar files. */
const oneLine = (label: string) => z.refine<string>((value) => !NOT_ONE_LINE.test(value), `${label} must be on one line`);

export const eventTitleSchema = text.check(
  z.trim(),
  z.minLength(EVENT_TITLE_MIN, `Title must be at least ${EVENT_TITLE_MIN} characters`),
  z.maxLength(EVENT_TITLE_MAX, `Title cannot exceed ${EVENT_TITLE_MAX} characters`),
  oneLine("Title"),
);

/** Only http and https links: a `javascript:` or `data:` link would run in a reader's browser. */
function isWebLink(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const eventFields = {
  title: eventTitleSchema,
  description: text.check(
    z.trim(),
    z.minLength(1, "Describe the event"),
    z.maxLength(EVENT_DESCRIPTION_MAX, `Description cannot exceed ${formatCount(EVENT_DESCRIPTION_MAX)} characters`),
  ),
  path: z.enum(["monk", "warrior"], "Choose a path"),
  startsAt: text.check(z.trim(), z.minLength(1, "Choose a start")),
  endsAt: text.check(z.trim(), z.minLength(1, "Choose an end")),
  timeZone: text.check(
    z.trim(),
    z.refine<string>((value) => canonicalTimeZone(value) !== null, "Choose a time zone that exists"),
  ),
  onlineUrl: text.check(
    z.trim(),
    z.maxLength(EVENT_URL_MAX, `Link cannot exceed ${EVENT_URL_MAX} characters`),
    z.refine<string>((value) => value === "" || isWebLink(value), "Enter a link starting with http:// or https://"),
  ),
  place: text.check(z.trim(), z.maxLength(EVENT_PLACE_MAX, `Place cannot exceed ${EVENT_PLACE_MAX} characters`), oneLine("Place")),
  capacity: text.check(
    z.trim(),
    z.refine<string>(
      (value) => /^[0-9]{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= EVENT_CAPACITY_MAX,
      `Capacity must be a whole number from 1 to ${EVENT_CAPACITY_MAX}`,
    ),
  ),
};

type EventFields = { startsAt: string; endsAt: string; timeZone: string; onlineUrl: string; place: string };

/** Checks across fields, shared by the new and the edit form. */
const eventChecks = <T extends EventFields>() => [
  z.refine<T>((v) => zonedToUtc(v.startsAt, canonicalTimeZone(v.timeZone) ?? "UTC") !== null, { message: "Choose a valid start", path: ["startsAt"] }),
  z.refine<T>((v) => zonedToUtc(v.endsAt, canonicalTimeZone(v.timeZone) ?? "UTC") !== null, { message: "Choose a valid end", path: ["endsAt"] }),
  z.refine<T>(
    (v) => {
      const zone = canonicalTimeZone(v.timeZone) ?? "UTC";
      const start = zonedToUtc(v.startsAt, zone);
      const end = zonedToUtc(v.endsAt, zone);
      return !start || !end || end.getTime() > start.getTime();
    },
    { message: "The end must be after the start", path: ["endsAt"] },
  ),
  z.refine<T>((v) => v.onlineUrl !== "" || v.place !== "", { message: "Give an online link or a place", path: ["place"] }),
];

export const eventSchema = z.object(eventFields).check(...eventChecks<z.infer<z.ZodMiniObject<typeof eventFields>>>());
const newEventFields = { ...eventFields, submissionKey: submissionKeySchema };
export const newEventSchema = z.object(newEventFields).check(...eventChecks<z.infer<z.ZodMiniObject<typeof newEventFields>>>());

export type EventFormValues = z.infer<typeof eventSchema>;

/** The form's values as the domain takes them: times in UTC, the zone canonical, the capacity a number. */
export function eventInput(values: EventFormValues) {
  const timeZone = canonicalTimeZone(values.timeZone)!;
  return {
    title: values.title,
    description: values.description,
    path: values.path,
    startsAt: zonedToUtc(values.startsAt, timeZone)!,
    endsAt: zonedToUtc(values.endsAt, timeZone)!,
    timeZone,
    onlineUrl: values.onlineUrl || null,
    place: values.place || null,
    capacity: Number(values.capacity),
  };
}
