import { data } from "react-router";
import * as z from "zod/mini";
import { firstErrors, formToObject, type FieldErrors } from "~/schemas/form-data";
import { renderedOnce } from "./cache/page-tags";

const UNREADABLE = "The form could not be read. Please try again.";

/**
 * The form a post carries, or a 400: a body that is not a form (JSON, text, multipart without a
 * boundary, nothing at all) makes request.formData() throw, which must not become a 500. `clone`
 * leaves the body for a later parseForm, for actions that read their intent first.
 */
export async function readForm(request: Request, { clone = false } = {}): Promise<FormData> {
  let form: FormData;
  try {
    form = await (clone ? request.clone() : request).formData();
  } catch {
    throw data({ errors: { form: UNREADABLE } as FieldErrors }, { status: 400 });
  }
  return withoutNul(form);
}

/**
 * The form with every NUL character taken out of its names and text. PostgreSQL cannot store or
 * even compare a text with NUL in it (the query fails), SQLite would keep an invisible character;
 * no one types one, so dropping it loses nothing and both engines see the same text.
 */
export function withoutNul(form: FormData): FormData {
  let found = false;
  for (const [name, value] of form) {
    if (name.includes("\0") || (typeof value === "string" && value.includes("\0"))) {
      found = true;
      break;
    }
  }
  if (!found) return form;
  const clean = new FormData();
  for (const [name, value] of form) {
    clean.append(name.replaceAll("\0", ""), typeof value === "string" ? value.replaceAll("\0", "") : value);
  }
  return clean;
}

/** Reads a form post and parses it with the shared schema; unreadable input is a 400. */
export async function parseForm<S extends z.core.$ZodType>(
  request: Request,
  schema: S,
  checkboxes: readonly string[] = [],
  lists: readonly string[] = [],
) {
  const formData = await readForm(request);
  const raw = formToObject(formData, checkboxes, lists);
  const result = z.safeParse(schema, raw);
  if (!result.success) {
    return { ok: false as const, errors: firstErrors(result.error.issues), raw, formData };
  }
  return { ok: true as const, values: result.data as z.infer<S>, raw, formData };
}

/**
 * A one-time key for a form whose service takes a repeated key for a double submit whatever was
 * written (events, challenges). The page it is on is never kept in the page cache (ADR 0040): two
 * tabs served one kept page would share the key, and the second submit would be taken for the
 * first. Posts need no such care: their key is bound to the text (createPost).
 */
export function oneTimeFormKey() {
  renderedOnce();
  return crypto.randomUUID();
}
