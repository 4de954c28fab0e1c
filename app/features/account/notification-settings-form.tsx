import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox, FormAlert, Label } from "~/components/ui/form-controls";
import { Link } from "~/components/ui/link";
import { NOTIFICATION_SETTINGS, type NotificationSetting } from "~/lib/notifications";
import { notificationField } from "~/schemas/fields";
import { Done, SettingsForm, type SettingsResult } from "./settings-form";

/** One kind of notification as the member set it: no row saved means on. */
export interface NotificationSettingRow {
  kind: NotificationSetting;
  inSite: boolean;
  byMail: boolean;
}

/** Each kind of notification (issue 28), in the site and by mail: a group of two checkboxes per kind. */
export function NotificationSettingsForm({ settings, result }: { settings: NotificationSettingRow[]; result?: SettingsResult }) {
  const checkboxes = settings.flatMap((s) => [notificationField(s.kind, "site"), notificationField(s.kind, "mail")]);
  return (
    <SettingsForm
      intent="notifications"
      title="Notifications"
      description="In the site: the bell and your notifications page. By mail: at most one mail an hour, only of what you have not read."
      schema={() => import("~/schemas/settings").then((m) => m.notificationSettingsSchema)}
      checkboxes={checkboxes}
      result={result}
      submit="Save notification settings"
      submitting="Saving..."
    >
      {() => (
        <div className="grid gap-x-6 gap-y-4 sm:grid-cols-2">
          {settings.map((s) => (
            <fieldset key={s.kind} className="flex flex-col gap-2">
              <legend className="mb-2 text-sm font-medium">{NOTIFICATION_SETTINGS[s.kind]}</legend>
              <div className="flex flex-wrap gap-x-6 gap-y-2">
                <div className="flex items-center gap-2">
                  <Checkbox id={`notify-${s.kind}-site`} name={notificationField(s.kind, "site")} defaultChecked={s.inSite} />
                  <Label htmlFor={`notify-${s.kind}-site`} className="font-normal">
                    In the site
                  </Label>
                </div>
                <div className="flex items-center gap-2">
                  <Checkbox id={`notify-${s.kind}-mail`} name={notificationField(s.kind, "mail")} defaultChecked={s.byMail} />
                  <Label htmlFor={`notify-${s.kind}-mail`} className="font-normal">
                    By mail
                  </Label>
                </div>
              </div>
            </fieldset>
          ))}
        </div>
      )}
    </SettingsForm>
  );
}

/** The members the viewer muted, each with a button that unmutes them. */
export function MutedMembers({ members, result }: { members: Array<{ id: string; name: string; handle: string }>; result?: SettingsResult }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction?.endsWith("intent=unmute") === true;
  return (
    <Card>
      <CardHeader>
        <CardTitle id="muted-members">Muted members</CardTitle>
        <CardDescription>You are not notified of anything a muted member does. Mute someone from their profile.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <FormAlert>{result?.errors.form}</FormAlert>
        <Done>{result?.done}</Done>
        {members.length === 0 ? (
          <p className="text-sm text-stone-700">You have muted nobody.</p>
        ) : (
          <ul aria-labelledby="muted-members" className="flex flex-col divide-y divide-line">
            {members.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link to={`/members/${m.handle}`} className="font-medium text-monk-strong underline-offset-2 hover:underline">
                  {m.name}
                </Link>
                <Form method="post" action="/settings?intent=unmute">
                  <input type="hidden" name="memberId" value={m.id} />
                  <Button type="submit" variant="outline" size="sm" disabled={busy}>
                    Unmute<span className="sr-only"> {m.name}</span>
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
