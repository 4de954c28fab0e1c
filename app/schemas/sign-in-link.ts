import * as z from "zod/mini";

/** The token a mailed sign-in link carries (ADR 0042); the page posts it back with its one button. */
export const signInLinkSchema = z.object({
  token: z.string().check(z.minLength(1, "Required"), z.maxLength(200, "Invalid link")),
});
