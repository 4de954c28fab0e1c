import { TextField } from "~/components/ui/form-controls";
import { CurrentPasswordField, SettingsForm, type SettingsResult } from "./settings-form";

/** A new sign-in address, which changes only when the member follows the link mailed to it. */
export function EmailSettingsForm({ email, result }: { email: string; result?: SettingsResult }) {
  return (
    <SettingsForm
      intent="email"
      title="Email address"
      description={
        <>
          You sign in with <strong className="text-ink">{email}</strong>. A new address changes only when you follow the link we mail to it.
        </>
      }
      schema={() => import("~/schemas/settings").then((m) => m.changeEmailSchema)}
      result={result}
      submit="Send confirmation link"
      submitting="Sending..."
    >
      {(errors) => (
        <>
          <TextField name="email" id="new-email" label="New email" type="email" autoComplete="email" error={errors.email} />
          <CurrentPasswordField id="email-current-password" error={errors.currentPassword} />
        </>
      )}
    </SettingsForm>
  );
}
