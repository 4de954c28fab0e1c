import { MarkdownField } from "~/components/community/markdown-field";
import { Form, useNavigation } from "react-router";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardFooter } from "~/components/ui/card";
import { FieldError, FormAlert, Label, TextField } from "~/components/ui/form-controls";
import { EVENT_CAPACITY_MAX, EVENT_DESCRIPTION_MAX, EVENT_PLACE_MAX, EVENT_TITLE_MAX, EVENT_URL_MAX, MARKDOWN_HELP } from "~/schemas/fields";

export interface EventFormDefaults {
  title: string;
  description: string;
  path: "monk" | "warrior";
  startsAt: string;
  endsAt: string;
  timeZone: string;
  onlineUrl: string;
  place: string;
  capacity: string;
}

const SELECT_CLASS =
  "w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-base text-ink focus-visible:outline-3 focus-visible:outline-offset-1 aria-[invalid=true]:border-warrior";

/** The create and edit form: one schema for the browser and the action (STYLE.md). */
export function EventForm({
  defaults,
  zones,
  errors: serverErrors,
  submissionKey,
  submitLabel,
}: {
  defaults: EventFormDefaults;
  zones: string[];
  errors?: Record<string, string>;
  submissionKey?: string;
  submitLabel: string;
}) {
  const { errors, onSubmit, onChange } = useValidatedForm(
    () => import("~/schemas/events").then((m) => (submissionKey ? m.newEventSchema : m.eventSchema)),
    [],
    serverErrors,
  );
  const busy = useNavigation().state === "submitting";
  const select = (name: "path" | "timeZone", label: string, options: { value: string; label: string }[]) => (
    <div className="flex flex-col gap-2">
      <Label htmlFor={`event-${name}`}>{label}</Label>
      <select
        id={`event-${name}`}
        name={name}
        defaultValue={defaults[name]}
        className={SELECT_CLASS}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `event-${name}-error` : undefined}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={`event-${name}-error`}>{errors[name]}</FieldError>
    </div>
  );
  return (
    <Card>
      <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange}>
        {submissionKey ? <input type="hidden" name="submissionKey" value={submissionKey} /> : <input type="hidden" name="intent" value="edit" />}
        <CardContent className="flex flex-col gap-5 pt-6">
          <FormAlert>{errors.form ?? errors.submissionKey}</FormAlert>
          <TextField name="title" id="event-title" label="Title" defaultValue={defaults.title} error={errors.title} maxLength={EVENT_TITLE_MAX} />
          <MarkdownField
            name="description"
            id="event-description"
            label="Description"
            rows={8}
            maxLength={EVENT_DESCRIPTION_MAX}
            defaultValue={defaults.description}
            error={errors.description}
            help={`What to expect and what to bring. ${MARKDOWN_HELP}`}
          />
          {select("path", "Path", [
            { value: "monk", label: "Monk (mind)" },
            { value: "warrior", label: "Warrior (body)" },
          ])}
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField name="startsAt" id="event-startsAt" type="datetime-local" label="Starts" defaultValue={defaults.startsAt} error={errors.startsAt} />
            <TextField name="endsAt" id="event-endsAt" type="datetime-local" label="Ends" defaultValue={defaults.endsAt} error={errors.endsAt} />
          </div>
          {select(
            "timeZone",
            "Time zone",
            zones.map((z) => ({ value: z, label: z.replaceAll("_", " ") })),
          )}
          <TextField
            name="onlineUrl"
            id="event-onlineUrl"
            type="url"
            label="Online link"
            defaultValue={defaults.onlineUrl}
            error={errors.onlineUrl}
            maxLength={EVENT_URL_MAX}
            placeholder="https://"
          />
          <TextField name="place" id="event-place" label="Place" defaultValue={defaults.place} error={errors.place} maxLength={EVENT_PLACE_MAX} />
          <TextField
            name="capacity"
            id="event-capacity"
            type="number"
            inputMode="numeric"
            min={1}
            max={EVENT_CAPACITY_MAX}
            label="Capacity"
            defaultValue={defaults.capacity}
            error={errors.capacity}
          />
        </CardContent>
        <CardFooter>
          <Button type="submit" variant="monk" disabled={busy}>
            {busy ? "Saving..." : submitLabel}
          </Button>
        </CardFooter>
      </Form>
    </Card>
  );
}
