import * as z from "zod/mini";
import type { CreationType } from "~/lib/domain-values";
import { bodySchema, submissionKeySchema } from "./forum";
import { CREATION_TITLE_MIN, CREATION_TITLE_MAX, DESCRIPTION_MAX, LINK_MAX } from "./fields";
export { CREATION_TITLE_MIN, CREATION_TITLE_MAX, DESCRIPTION_MAX, LINK_MAX, IMAGE_MAX_BYTES, AUDIO_MAX_BYTES, UPLOAD_BODY_LIMIT } from "./fields";

// Issue 10: a creation's title 3 to 120 characters, description up to 500, a Markdown body; by
// type an image (Visual Art), an audio file (Music) or an http(s) link (Projects).

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export const AUDIO_TYPES = ["audio/mpeg", "audio/ogg", "audio/wav"] as const;

export const CREATION_TYPE_IDS = ["writing", "art", "music", "projects"] as const satisfies readonly CreationType[];

const text = z.string({ error: (issue) => (issue.input === undefined ? "Required" : "Expected text") });

export const creationTitleSchema = text.check(
  z.trim(),
  z.minLength(CREATION_TITLE_MIN, `Title must be at least ${CREATION_TITLE_MIN} characters`),
  z.maxLength(CREATION_TITLE_MAX, `Title cannot exceed ${CREATION_TITLE_MAX} characters`),
);

export const descriptionSchema = text.check(z.trim(), z.maxLength(DESCRIPTION_MAX, `Description cannot exceed ${DESCRIPTION_MAX} characters`));

/**
 * A project's link: http or https only (never `javascript:` or `data:`), parsed as a URL. Required
 * for Projects and ignored for the other types (the form may still carry one from a type the member
 * switched away from).
 */
export function isWebLink(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (value.length > LINK_MAX || /[\s\u0000-\u001f]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const fields = {
  title: creationTitleSchema,
  description: descriptionSchema,
  type: z.enum(CREATION_TYPE_IDS, { error: "Choose a type" }),
  body: bodySchema,
  linkUrl: z.optional(text.check(z.trim())),
};

const linkRule = z.superRefine((value: { type: CreationType; linkUrl?: string }, ctx) => {
  if (value.type !== "projects") return;
  if (!value.linkUrl) ctx.addIssue({ code: "custom", path: ["linkUrl"], message: "Add a link to the project" });
  else if (!isWebLink(value.linkUrl)) ctx.addIssue({ code: "custom", path: ["linkUrl"], message: "The link must start with http:// or https://" });
});

/** The share form's text fields; the file (if any) is checked by the upload step. */
export const creationSchema = z.object({ ...fields, submissionKey: submissionKeySchema }).check(linkRule);
export const editCreationSchema = z.object(fields).check(linkRule);

export type CreationInput = z.infer<typeof editCreationSchema>;
