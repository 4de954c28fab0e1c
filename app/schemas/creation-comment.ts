import * as z from "zod/mini";
import { submissionKeySchema } from "./forum";
import { COMMENT_MAX } from "./fields";
export { COMMENT_MAX } from "./fields";

// Issue 10: a comment on a creation is 1 to 2,000 characters; the form and the action share this.

export const commentBodySchema = z
  .string({ error: (issue) => (issue.input === undefined ? "Required" : "Expected text") })
  .check(z.trim(), z.minLength(1, "Write something before posting"), z.maxLength(COMMENT_MAX, "Comment cannot exceed 2,000 characters"));

export const commentSchema = z.object({ body: commentBodySchema, submissionKey: submissionKeySchema });
export const editCommentSchema = z.object({ body: commentBodySchema });
