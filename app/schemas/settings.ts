import * as z from "zod/mini";
import { isTimeZone } from "~/lib/time-zones";
import { NOTIFICATION_SETTING_NAMES, type NotificationSetting } from "~/lib/notifications";
import { notificationField } from "./fields";
import { emailSchema, fullNameSchema, bioSchema, interestsSchema, passwordRulesSchema, passwordsMatch } from "./account";

// The settings forms (issue 11, item 7). Name and bio follow the join form's rules and messages
// (seed §5, PRODUCT.md §7); the password fields follow the reset form's.

const required = (what = "string") => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "Required" : `Expected ${what}`),
});

export const TIME_ZONE_UNKNOWN = "Choose a time zone from the list";

/** The password asked for before a change that matters; its wrongness is the service's to say. */
const currentPassword = z.string(required()).check(z.minLength(1, "Password is required"), z.maxLength(128, "The password is not correct"));

export const profileSettingsSchema = z.object({
  fullName: fullNameSchema,
  bio: bioSchema,
  interests: interestsSchema,
  timeZone: z.string(required()).check(z.refine((v) => isTimeZone(v), TIME_ZONE_UNKNOWN)),
});
export type ProfileSettingsValues = z.infer<typeof profileSettingsSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword,
    password: passwordRulesSchema,
    confirmPassword: z.string(required()).check(z.maxLength(128, "Passwords do not match")),
  })
  .check(passwordsMatch);
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;

export const changeEmailSchema = z.object({ email: emailSchema, currentPassword });
export type ChangeEmailValues = z.infer<typeof changeEmailSchema>;

export const deleteAccountSchema = z.object({ currentPassword });
export type DeleteAccountValues = z.infer<typeof deleteAccountSchema>;

export const emailChangeTokenSchema = z.object({
  token: z.string(required()).check(z.minLength(1, "Required"), z.maxLength(200, "Invalid link")),
});

/** Each kind of notification on or off, in the site and by mail (issue 28): 24 checkboxes, named by notificationField. */
const notificationChannels = z.object({ site: z.boolean(required("boolean")), mail: z.boolean(required("boolean")) });
export const notificationSettingsSchema = z.object({
  notify: z.object(
    Object.fromEntries(NOTIFICATION_SETTING_NAMES.map((kind) => [kind, notificationChannels])) as Record<NotificationSetting, typeof notificationChannels>,
  ),
});
export type NotificationSettingsValues = z.infer<typeof notificationSettingsSchema>;
export const NOTIFICATION_CHECKBOXES = NOTIFICATION_SETTING_NAMES.flatMap((kind) => [notificationField(kind, "site"), notificationField(kind, "mail")]);

/** Unmuting a member from the settings page's list: their id, as the list gave it. */
export const unmuteSchema = z.object({
  memberId: z.string(required()).check(z.minLength(1, "Unknown member"), z.maxLength(100, "Unknown member")),
});
