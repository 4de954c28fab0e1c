import { CurrentPasswordField, SettingsForm, type SettingsResult } from "./settings-form";

/** Deleting the account, confirmed by the current password (ADR 0023); success redirects home. */
export function DeleteAccountForm({ result }: { result?: SettingsResult }) {
  return (
    <SettingsForm
      intent="delete"
      title="Delete account"
      description={
        <>
          Your name, email address, bio, interests and sessions are removed for good. What you wrote stays, signed &ldquo;[deleted member]&rdquo;, so
          conversations stay readable.
        </>
      }
      schema={() => import("~/schemas/settings").then((m) => m.deleteAccountSchema)}
      result={result}
      submit="Delete my account"
      submitting="Deleting..."
      tone="warrior"
      className="border-warrior"
    >
      {(errors) => <CurrentPasswordField id="delete-current-password" error={errors.currentPassword} />}
    </SettingsForm>
  );
}
