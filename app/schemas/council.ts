import * as z from "zod/mini";
import { VIRTUE_IDS } from "~/lib/virtues";
import { bodySchema, submissionKeySchema, titleSchema } from "./forum";
export { QUESTION_LISTS } from "./fields";

/** Issue 4: a question carries 1 to 3 of the six virtues as tags. */
export const virtuesSchema = z
  .array(z.enum(VIRTUE_IDS, { error: "Choose virtues from the list" }))
  .check(z.minLength(1, "Choose at least one virtue"), z.maxLength(3, "Choose at most three virtues"))
  .check(z.refine((list) => new Set(list).size === list.length, "Choose each virtue once"));

export const questionSchema = z.object({ title: titleSchema, body: bodySchema, virtues: virtuesSchema, submissionKey: submissionKeySchema });
export const editQuestionSchema = z.object({ title: titleSchema, body: bodySchema, virtues: virtuesSchema });
export const answerSchema = z.object({ body: bodySchema, submissionKey: submissionKeySchema });
export const editAnswerSchema = z.object({ body: bodySchema });

export const advisorSchema = z.object({
  email: z.string().check(z.trim(), z.email("Please enter a valid email address")),
  path: z.enum(["monk", "warrior"], { error: "Choose the monk or the warrior path" }),
  specialty: z.string().check(z.trim(), z.minLength(3, "Specialty must be at least 3 characters"), z.maxLength(80, "Specialty cannot exceed 80 characters")),
});
