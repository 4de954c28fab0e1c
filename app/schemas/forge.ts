import * as z from "zod/mini";
import type { CreationType } from "~/lib/domain-values";
import { submissionKeySchema } from "./forum";
import { PROJECT_NEEDS_LINK, WRITING_NEEDS_TEXT } from "./forge-messages";
import { BODY_MAX, CREATION_TITLE_MIN, CREATION_TITLE_MAX, DESCRIPTION_MAX, LINK_MAX } from "./fields";
export { CREATION_TITLE_MIN, CREATION_TITLE_MAX, DESCRIPTION_MAX, LINK_MAX, IMAGE_MAX_BYTES, AUDIO_MAX_BYTES, UPLOAD_BODY_LIMIT } from "./fields";

// Issue 10: a creation's title 3 to 120 characters, description up to 500, a Markdown body; by
// type an image (Visual Art), an audio file (Music) or an http(s) link (Projects).
// Issue 26: each type's work is one part, and only that part is required (ADR 0047): Writing's is its
// text; Visual Art's its image, Music's its audio file (both checked with the upload), Projects' its
// link. The written part of the other types is optional.

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
function isProjectLink(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (value.length > LINK_MAX || /[\s\u0000-\u001f]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** "Your work": a Markdown text, optional here; `workRule` requires it where the text is the work. */
export const creationBodySchema = text.check(z.trim(), z.maxLength(BODY_MAX, "Post cannot exceed 20,000 characters"));

export { ART_NEEDS_IMAGE, MUSIC_NEEDS_AUDIO, PROJECT_NEEDS_LINK, WRITING_NEEDS_TEXT } from "./forge-messages";

const fields = {
  title: creationTitleSchema,
  description: descriptionSchema,
  type: z.enum(CREATION_TYPE_IDS, { error: "Choose a type" }),
  // Absent counts as empty: a picture or a song is shared without a word.
  body: z._default(creationBodySchema, ""),
  linkUrl: z.optional(text.check(z.trim())),
};

const workRule = z.superRefine((value: { type: CreationType; body?: string }, ctx) => {
  if (value.type === "writing" && !value.body) ctx.addIssue({ code: "custom", path: ["body"], message: WRITING_NEEDS_TEXT });
});

const linkRule = z.superRefine((value: { type: CreationType; linkUrl?: string }, ctx) => {
  if (value.type !== "projects") return;
  if (!value.linkUrl) ctx.addIssue({ code: "custom", path: ["linkUrl"], message: PROJECT_NEEDS_LINK });
  else if (!isProjectLink(value.linkUrl)) ctx.addIssue({ code: "custom", path: ["linkUrl"], message: "The link must start with http:// or https://" });
});

/** The share form's text fields; the file (if any) is checked by the upload step. */
export const creationSchema = z.object({ ...fields, submissionKey: submissionKeySchema }).check(workRule, linkRule);
export const editCreationSchema = z.object(fields).check(workRule, linkRule);

export type CreationInput = z.infer<typeof editCreationSchema>;
