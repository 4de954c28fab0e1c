import { Checkbox, FieldError, Label, TextAreaField, TextField } from "~/components/ui/form-controls";
import { INTEREST_CHECKBOXES, INTERESTS } from "~/schemas/fields";
import { SettingsForm, type SettingsResult } from "./settings-form";

/** What the profile form starts from: the member's saved profile. */
export interface ProfileSettings {
  name: string;
  bio: string;
  interests: string[];
  timeZone: string;
}

/** Name, bio, interests and the time zone that daily check-ins count days in. */
export function ProfileSettingsForm({ settings, zones, result }: { settings: ProfileSettings; zones: string[]; result?: SettingsResult }) {
  return (
    <SettingsForm
      intent="profile"
      title="Profile"
      description="What others see on your profile page."
      schema={() => import("~/schemas/settings").then((m) => m.profileSettingsSchema)}
      checkboxes={INTEREST_CHECKBOXES}
      result={result}
      submit="Save profile"
      submitting="Saving..."
    >
      {(errors) => (
        <>
          <TextField name="fullName" label="Full Name" autoComplete="name" defaultValue={settings.name} error={errors.fullName} />
          <TextAreaField name="bio" label="Bio" rows={3} defaultValue={settings.bio} error={errors.bio} help="At most 250 characters." />
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-2 text-sm font-medium">Your Primary Interests</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {INTERESTS.map((interest) => (
                <div key={interest.id} className="flex items-center gap-2">
                  <Checkbox id={`interest-${interest.id}`} name={`interests.${interest.id}`} defaultChecked={settings.interests.includes(interest.id)} />
                  <Label htmlFor={`interest-${interest.id}`} className="font-normal">
                    {interest.label}
                  </Label>
                </div>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-col gap-2">
            <Label htmlFor="timeZone">Time zone</Label>
            <select
              id="timeZone"
              name="timeZone"
              defaultValue={settings.timeZone}
              aria-invalid={errors.timeZone ? true : undefined}
              aria-describedby={errors.timeZone ? "timeZone-error" : "timeZone-help"}
              className="h-10 rounded-md border border-line bg-white px-3 text-sm"
            >
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replaceAll("_", " ")}
                </option>
              ))}
            </select>
            <p id="timeZone-help" className="text-xs text-muted">
              Daily check-ins count calendar days in this zone.
            </p>
            <FieldError id="timeZone-error">{errors.timeZone}</FieldError>
          </div>
        </>
      )}
    </SettingsForm>
  );
}
