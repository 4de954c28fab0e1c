import { data } from "react-router";
import * as z from "zod/mini";
import { firstErrors, formToObject, type FieldErrors } from "~/schemas/form-data";

/** Reads a form post and parses it with the shared schema; unreadable input is a 400. */
export async function parseForm<S extends z.core.$ZodType>(
  request: Request,
  schema: S,
  checkboxes: readonly string[] = [],
  lists: readonly string[] = [],
) {
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    throw data({ errors: { form: "The form could not be read. Please try again." } as FieldErrors }, { status: 400 });
  }
  const raw = formToObject(formData, checkboxes, lists);
  const result = z.safeParse(schema, raw);
  if (!result.success) {
    return { ok: false as const, errors: firstErrors(result.error.issues), raw, formData };
  }
  return { ok: true as const, values: result.data as z.infer<S>, raw, formData };
}
