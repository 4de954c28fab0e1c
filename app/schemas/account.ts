import { z } from "zod";

// Every message here is the seed's (§5), word for word; limits beyond the seed come from PRODUCT.md §7.

export const INTERESTS = [
  { id: "meditation", label: "Meditation & Inner Peace" },
  { id: "fitness", label: "Fitness & Strength" },
  { id: "philosophy", label: "Philosophy & Wisdom" },
  { id: "creativity", label: "Creative Expression" },
] as const;
export type InterestId = (typeof INTERESTS)[number]["id"];

const required = (what = "string") => ({
  error: (issue: { input: unknown }) => (issue.input === undefined ? "Required" : `Expected ${what}`),
});

export const emailSchema = z
  .string(required())
  .trim()
  .max(254, "Please enter a valid email address")
  .pipe(z.email("Please enter a valid email address"));

export const passwordRulesSchema = z
  .string(required())
  .min(8, "Password must be at least 8 characters")
  .regex(/[A-Z]/, "Password must contain at least one uppercase letter")
  .regex(/[0-9]/, "Password must contain at least one number")
  .max(128, "Password cannot exceed 128 characters");

export const joinSchema = z
  .object({
    fullName: z
      .string(required())
      .trim()
      .min(2, "Full name must be at least 2 characters")
      .max(100, "Full name cannot exceed 100 characters"),
    email: emailSchema,
    password: passwordRulesSchema,
    confirmPassword: z.string(required()).max(128, "Passwords do not match"),
    bio: z.string(required()).trim().max(250, "Bio cannot exceed 250 characters").optional(),
    interests: z
      .object({
        meditation: z.boolean(required("boolean")).optional(),
        fitness: z.boolean(required("boolean")).optional(),
        philosophy: z.boolean(required("boolean")).optional(),
        creativity: z.boolean(required("boolean")).optional(),
      })
      .default({}),
    termsAccepted: z.boolean(required("boolean")).refine((v) => v === true, "You must accept the terms and conditions"),
  })
  .refine((values) => values.password === values.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
    // Say so as soon as both are typed, even while another field is still wrong.
    when: (payload) => {
      const v = payload.value as { password?: unknown; confirmPassword?: unknown };
      return typeof v?.password === "string" && typeof v?.confirmPassword === "string";
    },
  });

export type JoinValues = z.infer<typeof joinSchema>;
export const JOIN_CHECKBOXES = [
  ...INTERESTS.map((i) => `interests.${i.id}`),
  "termsAccepted",
] as const;

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string(required()).min(1, "Password is required").max(128, "Invalid email or password"),
  rememberMe: z.boolean(required("boolean")).optional().default(false),
});
export type SignInValues = z.infer<typeof signInSchema>;
export const SIGN_IN_CHECKBOXES = ["rememberMe"] as const;
