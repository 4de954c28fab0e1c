import { CheckCircle2 } from "~/components/ui/icons/check-circle-2";
import { Download } from "~/components/ui/icons/download";
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/settings";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox, FieldError, FormAlert, Label, TextAreaField, TextField } from "~/components/ui/form-controls";
import { servicesContext } from "~/.server/context";
import { signOutMember } from "~/.server/domain/accounts/account-service";
import {
  changePassword,
  deleteAccount,
  requestEmailChange,
  saveProfile,
  settingsOf,
} from "~/.server/domain/accounts/settings-service";
import { flashCookie } from "~/.server/flash";
import { parseForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { INTEREST_CHECKBOXES, INTERESTS } from "~/schemas/fields";
import type { FieldErrors } from "~/schemas/form-data";
import {
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  profileSettingsSchema,
} from "~/schemas/settings";
import { timeZoneNames } from "~/lib/time-zones";

export const meta: Route.MetaFunction = () => [
  { title: "Settings · Inner Peace. Outer Strength." },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const settings = await settingsOf(context.get(servicesContext), viewer.id);
  if (!settings) throw data("Not found", { status: 404 });
  const zones = timeZoneNames();
  // A zone saved under an older alias stays selectable as it is.
  if (!zones.includes(settings.timeZone)) zones.unshift(settings.timeZone);
  return { settings, zones };
}

type Intent = "profile" | "email" | "password" | "delete";
type ActionResult = { intent: Intent; errors: FieldErrors; done?: string };

const fail = (intent: Intent, errors: FieldErrors, status: number) => data<ActionResult>({ intent, errors }, { status });

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  // The intent travels in the query string, so each form is parsed by its own schema alone.
  const intent = new URL(request.url).searchParams.get("intent");
  switch (intent) {
    case "profile": {
      const parsed = await parseForm(request, profileSettingsSchema, INTEREST_CHECKBOXES);
      if (!parsed.ok) return fail(intent, parsed.errors, 400);
      await saveProfile(services, viewer, parsed.values);
      return data<ActionResult>({ intent, errors: {}, done: "Your profile is saved." });
    }
    case "email": {
      const parsed = await parseForm(request, changeEmailSchema);
      if (!parsed.ok) return fail(intent, parsed.errors, 400);
      const result = await requestEmailChange(services, viewer, parsed.values, request.headers);
      if (!result.ok) return fail(intent, result.errors, result.status);
      return data<ActionResult>({
        intent,
        errors: {},
        done: `We sent a link to ${result.value.email}. Your address changes when you follow it (within 24 hours).`,
      });
    }
    case "password": {
      const parsed = await parseForm(request, changePasswordSchema);
      if (!parsed.ok) return fail(intent, parsed.errors, 400);
      const result = await changePassword(services, viewer, parsed.values, request.headers);
      if (!result.ok) return fail(intent, result.errors, result.status);
      const headers = new Headers();
      for (const cookie of result.value.getSetCookie()) headers.append("Set-Cookie", cookie);
      return data<ActionResult>(
        { intent, errors: {}, done: "Your password is changed. Every other session is signed out." },
        { headers },
      );
    }
    case "delete": {
      const parsed = await parseForm(request, deleteAccountSchema);
      if (!parsed.ok) return fail(intent, parsed.errors, 400);
      const result = await deleteAccount(services, viewer, parsed.values, request.headers);
      if (!result.ok) return fail(intent, result.errors, result.status);
      const headers = new Headers();
      // The sessions are gone already; this only clears this browser's cookie.
      const cleared = await signOutMember(services, request.headers).catch(() => new Headers());
      for (const cookie of cleared.getSetCookie()) headers.append("Set-Cookie", cookie);
      headers.append("Set-Cookie", flashCookie("account-deleted", services.env.BASE_URL.startsWith("https://")));
      return redirect("/", { headers });
    }
    default:
      throw data("Unknown form", { status: 400 });
  }
}

function Done({ children }: { children?: string }) {
  if (!children) return null;
  return (
    <p role="status" className="flex items-center gap-2 rounded-md bg-monk-soft p-3 text-sm font-medium text-monk-strong">
      <CheckCircle2 aria-hidden="true" className="size-4 shrink-0" />
      {children}
    </p>
  );
}

function useSubmitting(intent: Intent) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formAction?.endsWith(`intent=${intent}`) === true;
}

function ProfileForm({ settings, zones, result }: { settings: Route.ComponentProps["loaderData"]["settings"]; zones: string[]; result?: ActionResult }) {
  const busy = useSubmitting("profile");
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/settings").then((m) => m.profileSettingsSchema), INTEREST_CHECKBOXES, result?.errors);
  return (
    <Card>
      <CardHeader>
        <CardTitle id="profile-settings">Profile</CardTitle>
        <CardDescription>What others see on your profile page.</CardDescription>
      </CardHeader>
      <Form method="post" action="/settings?intent=profile" noValidate onSubmit={onSubmit} onChange={onChange} aria-labelledby="profile-settings">
        <CardContent className="flex flex-col gap-5">
          <FormAlert>{errors.form}</FormAlert>
          <Done>{result?.done}</Done>
          <TextField name="fullName" label="Full Name" autoComplete="name" defaultValue={settings.name} error={errors.fullName} />
          <TextAreaField name="bio" label="Bio" rows={3} defaultValue={settings.bio} error={errors.bio} help="At most 250 characters." />
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-2 text-sm font-medium">Your Primary Interests</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {INTERESTS.map((interest) => (
                <div key={interest.id} className="flex items-center gap-2">
                  <Checkbox
                    id={`interest-${interest.id}`}
                    name={`interests.${interest.id}`}
                    defaultChecked={settings.interests.includes(interest.id)}
                  />
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
        </CardContent>
        <CardFooter>
          <Button type="submit" variant="monk" disabled={busy}>
            {busy ? "Saving..." : "Save profile"}
          </Button>
        </CardFooter>
      </Form>
    </Card>
  );
}

function EmailForm({ email, result }: { email: string; result?: ActionResult }) {
  const busy = useSubmitting("email");
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/settings").then((m) => m.changeEmailSchema), [], result?.errors);
  return (
    <Card>
      <CardHeader>
        <CardTitle id="email-settings">Email address</CardTitle>
        <CardDescription>
          You sign in with <strong className="text-ink">{email}</strong>. A new address changes only when you follow the link
          we mail to it.
        </CardDescription>
      </CardHeader>
      <Form method="post" action="/settings?intent=email" noValidate onSubmit={onSubmit} onChange={onChange} aria-labelledby="email-settings">
        <CardContent className="flex flex-col gap-5">
          <FormAlert>{errors.form}</FormAlert>
          <Done>{result?.done}</Done>
          <TextField name="email" id="new-email" label="New email" type="email" autoComplete="email" error={errors.email} />
          <TextField
            name="currentPassword"
            id="email-current-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword}
          />
        </CardContent>
        <CardFooter>
          <Button type="submit" variant="monk" disabled={busy}>
            {busy ? "Sending..." : "Send confirmation link"}
          </Button>
        </CardFooter>
      </Form>
    </Card>
  );
}

function PasswordForm({ result }: { result?: ActionResult }) {
  const busy = useSubmitting("password");
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/settings").then((m) => m.changePasswordSchema), [], result?.errors);
  return (
    <Card>
      <CardHeader>
        <CardTitle id="password-settings">Password</CardTitle>
        <CardDescription>Changing it signs you out everywhere else.</CardDescription>
      </CardHeader>
      <Form
        method="post"
        action="/settings?intent=password"
        noValidate
        onSubmit={onSubmit}
        onChange={onChange}
        aria-labelledby="password-settings"
      >
        <CardContent className="flex flex-col gap-5">
          <FormAlert>{errors.form}</FormAlert>
          <Done>{result?.done}</Done>
          <TextField
            name="currentPassword"
            id="password-current-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword}
          />
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
        </CardContent>
        <CardFooter>
          <Button type="submit" variant="monk" disabled={busy}>
            {busy ? "Changing..." : "Change password"}
          </Button>
        </CardFooter>
      </Form>
    </Card>
  );
}

function DeleteForm({ result }: { result?: ActionResult }) {
  const busy = useSubmitting("delete");
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/settings").then((m) => m.deleteAccountSchema), [], result?.errors);
  return (
    <Card className="border-warrior">
      <CardHeader>
        <CardTitle id="delete-settings">Delete account</CardTitle>
        <CardDescription>
          Your name, email address, bio, interests and sessions are removed for good. What you wrote stays, signed
          &ldquo;[deleted member]&rdquo;, so conversations stay readable.
        </CardDescription>
      </CardHeader>
      <Form method="post" action="/settings?intent=delete" noValidate onSubmit={onSubmit} onChange={onChange} aria-labelledby="delete-settings">
        <CardContent className="flex flex-col gap-5">
          <FormAlert>{errors.form}</FormAlert>
          <TextField
            name="currentPassword"
            id="delete-current-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword}
          />
        </CardContent>
        <CardFooter>
          <Button type="submit" variant="warrior" disabled={busy}>
            {busy ? "Deleting..." : "Delete my account"}
          </Button>
        </CardFooter>
      </Form>
    </Card>
  );
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, zones } = loaderData;
  const resultFor = (intent: Intent) => (actionData?.intent === intent ? actionData : undefined);
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="font-serif text-4xl font-bold">Settings</h1>
      <p className="mt-2 text-stone-700">Your profile, sign-in and data.</p>
      <div className="mt-8 flex flex-col gap-8">
        <ProfileForm settings={settings} zones={zones} result={resultFor("profile")} />
        <EmailForm email={settings.email} result={resultFor("email")} />
        <PasswordForm result={resultFor("password")} />
        <Card>
          <CardHeader>
            <CardTitle>Your data</CardTitle>
            <CardDescription>
              Everything you wrote and did here, with your profile, as one JSON file: discussions, replies, questions,
              answers, creations, comments, likes, votes, experience points, topics and newsletter status.
            </CardDescription>
          </CardHeader>
          <CardFooter>
            {/* A file download, not a page: the browser fetches it itself. */}
            <a
              href="/settings/export"
              download
              className="inline-flex h-10 items-center gap-2 rounded-md border border-line px-4 text-sm font-semibold hover:bg-stone-100"
            >
              <Download aria-hidden="true" className="size-4" />
              Download my data
            </a>
          </CardFooter>
        </Card>
        <DeleteForm result={resultFor("delete")} />
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
