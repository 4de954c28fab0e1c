import * as z from "zod/mini";
import { TITLE_MIN, TITLE_MAX, BODY_MAX } from "./fields";
export { TITLE_MIN, TITLE_MAX, BODY_MAX } from "./fields";

// Limits from PRODUCT.md §7: titles 8 to 150 characters, post bodies 1 to 20,000.

const text = z.string({ error: (issue) => (issue.input === undefined ? "Required" : "Expected text") });

export const titleSchema = text.check(
  z.trim(),
  z.minLength(TITLE_MIN, `Title must be at least ${TITLE_MIN} characters`),
  z.maxLength(TITLE_MAX, `Title cannot exceed ${TITLE_MAX} characters`),
);

export const bodySchema = text.check(z.trim(), z.minLength(1, "Write something before posting"), z.maxLength(BODY_MAX, "Post cannot exceed 20,000 characters"));

/** A random key rendered into each form, so a double submit makes one post. */
export const submissionKeySchema = text.check(z.regex(/^[A-Za-z0-9-]{16,64}$/, "The form is out of date. Please reload the page."));

export const discussionSchema = z.object({ title: titleSchema, body: bodySchema, submissionKey: submissionKeySchema });
export const replySchema = z.object({ body: bodySchema, submissionKey: submissionKeySchema });
export const editDiscussionSchema = z.object({ title: titleSchema, body: bodySchema });
export const editReplySchema = z.object({ body: bodySchema });

export const topicSchema = z.object({
  title: text.check(z.trim(), z.minLength(3, "Title must be at least 3 characters"), z.maxLength(80, "Title cannot exceed 80 characters")),
  description: text.check(
    z.trim(),
    z.minLength(10, "Description must be at least 10 characters"),
    z.maxLength(300, "Description cannot exceed 300 characters"),
  ),
});
