import * as z from "zod/mini";
import { emailSchema } from "./account";

export const newsletterSchema = z.object({ email: emailSchema });
export const tokenSchema = z.object({ token: z.string().check(z.minLength(1, "Required"), z.maxLength(100, "Invalid link")) });
