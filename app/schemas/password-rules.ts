// The password rules in words, shared by the schema (account.ts), the join form's hint and the error
// lists. No zod here: the join page's hint reads it without loading the schemas.

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** The seed's messages (§5), word for word, one per rule a password can fail. */
export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  noUppercase: "Password must contain at least one uppercase letter",
  noNumber: "Password must contain at least one number",
  tooLong: `Password cannot exceed ${PASSWORD_MAX} characters`,
} as const;

/** Shown under the password field before any submit (issue 26, item 9). */
export const PASSWORD_HINT = `At least ${PASSWORD_MIN} characters, with at least one uppercase letter and one number.`;
