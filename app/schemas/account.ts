import * as z from "zod/mini";
import { NOT_ONE_LINE } from "./fields";
import { MESSAGE_SEPARATOR } from "./form-data";
import { PASSWORD_MAX, PASSWORD_MESSAGES, PASSWORD_MIN } from "./password-rules";
export { INTERESTS, INTEREST_CHECKBOXES, JOIN_CHECKBOXES, SIGN_IN_CHECKBOXES, type InterestId } from "./fields";

// Every message here is the seed's (§5), word for word; limits beyond the seed come from PRODUCT.md §7,
// and a name's one-line rule from the titles' (issue 25, item 11), in their wording.
// zod/mini keeps the browser bundle small: these schemas ship to every form page (ADR 0006).

/** The validation default the seed mentions: 'Required' when a value is missing. */
const required = (what = "string") => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "Required" : `Expected ${what}`),
});

const INVALID_EMAIL = "Please enter a valid email address";

export const emailSchema = z.pipe(z.string(required()).check(z.trim(), z.maxLength(254, INVALID_EMAIL)), z.email(INVALID_EMAIL));

/** The rules in order, each with the seed's message for a password that fails it. */
const PASSWORD_RULES: readonly (readonly [(password: string) => boolean, string])[] = [
  [(p) => p.length >= PASSWORD_MIN, PASSWORD_MESSAGES.tooShort],
  [(p) => /[A-Z]/.test(p), PASSWORD_MESSAGES.noUppercase],
  [(p) => /[0-9]/.test(p), PASSWORD_MESSAGES.noNumber],
  [(p) => p.length <= PASSWORD_MAX, PASSWORD_MESSAGES.tooLong],
];

/**
 * Every rule is checked and a refused password hears of each it fails (issue 26, item 9): one
 * message, a line per rule, which FieldError shows as a list. One message rather than one per rule
 * keeps firstErrors, which every form page loads, free of password knowledge.
 */
export const passwordRulesSchema = z.string(required()).check(
  z.superRefine((password, ctx) => {
    const failing = PASSWORD_RULES.filter(([holds]) => !holds(password)).map(([, message]) => message);
    if (failing.length > 0) ctx.addIssue({ code: "custom", message: failing.join(MESSAGE_SEPARATOR), input: password });
  }),
);

/** 'Passwords do not match' on confirmPassword, as soon as both are typed, even while another field is wrong. */
export const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>((values) => values.password === values.confirmPassword, {
  message: "Passwords do not match",
  path: ["confirmPassword"],
  when: (payload) => {
    const v = payload.value as { password?: unknown; confirmPassword?: unknown };
    return typeof v?.password === "string" && typeof v?.confirmPassword === "string";
  },
});

const checkbox = z.optional(z.boolean(required("boolean")));

export const fullNameSchema = z.string(required()).check(
  z.trim(),
  z.minLength(2, "Full name must be at least 2 characters"),
  z.maxLength(100, "Full name cannot exceed 100 characters"),
  // A name reaches mail bodies and bylines: one line, as titles are (issue 25, item 11).
  z.refine((value) => !NOT_ONE_LINE.test(value), "Full name must be on one line"),
);
export const bioSchema = z.optional(z.string(required()).check(z.trim(), z.maxLength(250, "Bio cannot exceed 250 characters")));
export const interestsSchema = z._default(z.object({ meditation: checkbox, fitness: checkbox, philosophy: checkbox, creativity: checkbox }), {});

/** The browser's zone, filled in by a script on the join page; without JavaScript it is absent. */
const joinTimeZone = z.optional(z.string(required()).check(z.maxLength(64, "Expected string")));

export const joinSchema = z
  .object({
    fullName: fullNameSchema,
    email: emailSchema,
    password: passwordRulesSchema,
    confirmPassword: z.string(required()).check(z.maxLength(128, "Passwords do not match")),
    bio: bioSchema,
    interests: interestsSchema,
    timeZone: joinTimeZone,
    termsAccepted: z.boolean(required("boolean")).check(z.refine((v) => v === true, "You must accept the terms and conditions")),
  })
  .check(passwordsMatch);

export type JoinValues = z.infer<typeof joinSchema>;

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string(required()).check(z.minLength(1, "Password is required"), z.maxLength(128, "Invalid email or password")),
  rememberMe: z._default(z.optional(z.boolean(required("boolean"))), false),
});
export type SignInValues = z.infer<typeof signInSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });

export const resetPasswordSchema = z
  .object({
    token: z.string(required()).check(z.minLength(1, "Required"), z.maxLength(200, "Invalid link")),
    password: passwordRulesSchema,
    confirmPassword: z.string(required()).check(z.maxLength(128, "Passwords do not match")),
  })
  .check(passwordsMatch);
