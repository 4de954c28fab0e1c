import { data, redirect } from "react-router";
import type { Route } from "./+types/settings";
import { hydrateLater } from "~/components/layout/hydrate-later";
import { DataExportCard } from "~/features/account/data-export-card";
import { DeleteAccountForm } from "~/features/account/delete-account-form";
import { EmailSettingsForm } from "~/features/account/email-settings-form";
import { MutedMembers, NotificationSettingsForm } from "~/features/account/notification-settings-form";
import { PasswordSettingsForm } from "~/features/account/password-settings-form";
import { ProfileSettingsForm } from "~/features/account/profile-settings-form";
import { Done, type SettingsIntent, type SettingsResult } from "~/features/account/settings-form";
import { servicesContext } from "~/.server/context";
import { signOutMember } from "~/.server/domain/accounts/account-service";
import { removeAvatar, setAvatar } from "~/.server/domain/accounts/avatar-service";
import { changePassword, deleteAccount, requestEmailChange, saveProfile, settingsOf } from "~/.server/domain/accounts/settings-service";
import { membersMutedBy, notificationSettings, saveNotificationSettings, setMemberMuted } from "~/.server/domain/notifications/notification-service";
import { flashCookie } from "~/.server/flash";
import { parseForm } from "~/.server/forms";
import { requireViewer } from "~/.server/session";
import { parseAvatarForm } from "~/.server/upload-forms";
import { AVATAR_BODY_LIMIT, INTEREST_CHECKBOXES } from "~/schemas/fields";
import type { FieldErrors } from "~/schemas/form-data";
import {
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  NOTIFICATION_CHECKBOXES,
  notificationSettingsSchema,
  profileSettingsSchema,
  unmuteSchema,
} from "~/schemas/settings";
import { NOTIFICATION_SETTING_NAMES } from "~/lib/notifications";
import { timeZoneNames } from "~/lib/time-zones";

/**
 * The picture form and its file field are a chunk of their own, hydrated after the page (ADR 0031):
 * until then, and without JavaScript, the server's form posts the file as it is.
 */
const AvatarSettingsForm = hydrateLater(() => import("~/features/account/avatar-settings-form").then((m) => m.AvatarSettingsForm));

/** The picture form takes an upload: server/http.ts lets this route's posts be larger than the global 1 MB. */
export const handle = { maxBodyBytes: AVATAR_BODY_LIMIT };

export const meta: Route.MetaFunction = () => [{ title: "Settings · Inner Peace. Outer Strength." }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const services = context.get(servicesContext);
  const settings = await settingsOf(services, viewer.id);
  if (!settings) throw data("Not found", { status: 404 });
  const zones = timeZoneNames();
  // A zone saved under an older alias stays selectable as it is.
  if (!zones.includes(settings.timeZone)) zones.unshift(settings.timeZone);
  const [notifications, muted] = await Promise.all([notificationSettings(services.db, viewer.id), membersMutedBy(services.db, viewer)]);
  return { settings, zones, notifications, muted };
}

const fail = (intent: SettingsIntent, errors: FieldErrors, status: number) => data<SettingsResult>({ intent, errors }, { status });

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
      return data<SettingsResult>({ intent, errors: {}, done: "Your profile is saved." });
    }
    case "avatar": {
      const parsed = await parseAvatarForm(request);
      if (!parsed.ok) return fail(intent, parsed.errors, parsed.status);
      const result = await setAvatar(services, viewer, parsed.file?.bytes);
      if (!result.ok) return fail(intent, result.errors, result.status);
      return data<SettingsResult>({ intent, errors: {}, done: "Your picture is saved." });
    }
    case "remove-avatar": {
      await removeAvatar(services, viewer);
      return data<SettingsResult>({ intent, errors: {}, done: "Your picture is removed." });
    }
    case "email": {
      const parsed = await parseForm(request, changeEmailSchema);
      if (!parsed.ok) return fail(intent, parsed.errors, 400);
      const result = await requestEmailChange(services, viewer, parsed.values, request.headers);
      if (!result.ok) return fail(intent, result.errors, result.status);
      return data<SettingsResult>({
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
      return data<SettingsResult>({ intent, errors: {}, done: "Your password is changed. Every other session is signed out." }, { headers });
    }
    case "notifications": {
      const parsed = await parseForm(request, notificationSettingsSchema, NOTIFICATION_CHECKBOXES);
      if (!parsed.ok) return fail(intent, parsed.errors, 400);
      const { notify } = parsed.values;
      await saveNotificationSettings(
        services,
        viewer,
        NOTIFICATION_SETTING_NAMES.map((kind) => ({ kind, inSite: notify[kind].site, byMail: notify[kind].mail })),
      );
      return data<SettingsResult>({ intent, errors: {}, done: "Your notification settings are saved." });
    }
    case "unmute": {
      const parsed = await parseForm(request, unmuteSchema);
      if (!parsed.ok) return fail(intent, { form: parsed.errors.memberId ?? parsed.errors.form ?? "Unknown member" }, 400);
      const result = await setMemberMuted(services, viewer, parsed.values.memberId, false);
      if (!result.ok) return fail(intent, result.errors, result.status);
      return data<SettingsResult>({ intent, errors: {}, done: "Unmuted: you will be notified of what they do again." });
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

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, zones, notifications, muted } = loaderData;
  const resultFor = (intent: SettingsIntent) => (actionData?.intent === intent ? actionData : undefined);
  const avatarResult = resultFor("avatar") ?? resultFor("remove-avatar");
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="font-serif text-4xl font-bold">Settings</h1>
      <p className="mt-2 text-stone-700">Your profile, notifications, sign-in and data.</p>
      <div className="mt-8 flex flex-col gap-8">
        <ProfileSettingsForm settings={settings} zones={zones} result={resultFor("profile")} />
        <AvatarSettingsForm member={settings} result={avatarResult} done={<Done>{avatarResult?.done}</Done>} />
        <NotificationSettingsForm settings={notifications} result={resultFor("notifications")} />
        <MutedMembers members={muted} result={resultFor("unmute")} />
        <EmailSettingsForm email={settings.email} result={resultFor("email")} />
        <PasswordSettingsForm result={resultFor("password")} />
        <DataExportCard />
        <DeleteAccountForm result={resultFor("delete")} />
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error-boundary";
