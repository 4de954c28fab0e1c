import { TextField } from "~/components/ui/form-controls";
import { CurrentPasswordField, SettingsForm, type SettingsResult } from "./settings-form";

/** A new password, given with the current one; the change signs out every other session. */
export function PasswordSettingsForm({ result }: { result?: SettingsResult }) {
  return (
    <SettingsForm
      intent="password"
      title="Password"
      description="Changing it signs you out everywhere else."
      schema={() => import("~/schemas/settings").then((m) => m.changePasswordSchema)}
      result={result}
      submit="Change password"
      submitting="Changing..."
    >
      {(errors) => (
        <>
          <CurrentPasswordField id="password-current-password" error={errors.currentPassword} />
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField name="password" id="new-password" label="New password" type="password" autoComplete="new-password" error={errors.password} />
            <TextField
              name="confirmPassword"
              id="confirm-new-password"
              label="Confirm new password"
              type="password"
              autoComplete="new-password"
              error={errors.confirmPassword}
            />
          </div>
        </>
      )}
    </SettingsForm>
  );
}
