import { data } from "react-router";
import * as z from "zod/mini";
import { firstErrors, formToObject, type FieldErrors } from "~/schemas/form-data";

export const UNREADABLE = "The form could not be read. Please try again.";

/** A form's schema is an object of its fields: parseForm reads the names it knows from it. */
type FormSchema = z.ZodMiniObject;

/**
 * Bounds on a form's shape, checked on the names alone before any object is built (issue 25): our
 * largest form has under twenty fields and names like "interests.fitness", so a post past these is
 * no one's form. Without them "interests.a.a.a…" 500,000 levels deep built as many nested objects
 * and echoed them back as an 8 MB answer.
 */
export const FORM_FIELDS_MAX = 100;
export const FIELD_NAME_MAX = 100;
/** Dotted segments in a name: "interests.fitness" has two. */
export const FIELD_DEPTH_MAX = 3;

/**
 * The form a post carries, or a 400: a body that is not a form (JSON, text, multipart without a
 * boundary, nothing at all) makes request.formData() throw, which must not become a 500; a form
 * past the bounds above is refused the same way. `clone` leaves the body for a later parseForm, for
 * actions that read their intent first.
 */
export async function readForm(request: Request, { clone = false } = {}): Promise<FormData> {
  const form = await readBoundedForm(clone ? request.clone() : request);
  if (!form) throw unreadable();
  return form;
}

function unreadable() {
  return data({ errors: { form: UNREADABLE } as FieldErrors }, { status: 400 });
}

/** The form, or null when it cannot be read or is past the bounds. Linear in the body's size. */
async function readBoundedForm(request: Request): Promise<FormData | null> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return null;
  }
  let fields = 0;
  for (const name of form.keys()) {
    if (++fields > FORM_FIELDS_MAX || name.length > FIELD_NAME_MAX) return null;
    // Counting dots in at most FIELD_NAME_MAX characters: cheap whatever the name was.
    let segments = 1;
    for (let i = name.indexOf("."); i !== -1; i = name.indexOf(".", i + 1)) segments++;
    if (segments > FIELD_DEPTH_MAX) return null;
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

/**
 * Reads a form post and parses it with the shared schema; unreadable input is a 400. `raw` holds
 * only the fields the schema knows, as sent (an action echoes them back into its form, never
 * anything else a post carried); `formData` is the whole form, for the rare field a schema does not
 * name (sign-in's redirect target).
 */
export async function parseForm<S extends FormSchema>(request: Request, schema: S, checkboxes: readonly string[] = [], lists: readonly string[] = []) {
  const result = await parseFormOrRefusal(request, schema, checkboxes, lists);
  if (result.unreadable) throw unreadable();
  return result;
}

/**
 * parseForm for an action that must count every attempt, an unreadable form too (the join, issue
 * 25): the unreadable form comes back as a failed parse with the form's message, not as a throw.
 */
export async function parseFormOrRefusal<S extends FormSchema>(request: Request, schema: S, checkboxes: readonly string[] = [], lists: readonly string[] = []) {
  const formData = await readBoundedForm(request);
  if (!formData) {
    const raw: Record<string, unknown> = {};
    return { ok: false as const, unreadable: true, errors: { form: UNREADABLE } as FieldErrors, raw, formData: new FormData() };
  }
  const raw = formToObject(formData, checkboxes, lists, knownFields(schema));
  const result = z.safeParse(schema, raw);
  if (!result.success) {
    return { ok: false as const, unreadable: false, errors: firstErrors(result.error.issues), raw, formData };
  }
  return { ok: true as const, unreadable: false, values: result.data as z.infer<S>, raw, formData };
}

const knownFieldsOf = new WeakMap<z.core.$ZodType, ReadonlySet<string>>();

/**
 * The form names a schema reads: its object's keys, dotted into nested objects
 * ("interests.fitness"). Worked out once per schema. A schema whose fields cannot be read this way
 * is a programming error, thrown at the first post rather than letting every name through.
 */
export function knownFields(schema: z.core.$ZodType): ReadonlySet<string> {
  let names = knownFieldsOf.get(schema);
  if (!names) {
    const found = new Set<string>();
    if (!collectFields(schema, "", found, 1)) throw new Error("A form schema must be an object (app/.server/forms.ts)");
    names = found;
    knownFieldsOf.set(schema, names);
  }
  return names;
}

/** Adds the object's field names under `prefix`; false when `schema` is no object. */
function collectFields(schema: z.core.$ZodType, prefix: string, into: Set<string>, depth: number): boolean {
  const def = unwrap(schema)._zod.def;
  if (def.type !== "object") return false;
  for (const [key, field] of Object.entries((def as z.core.$ZodObjectDef).shape)) {
    const name = prefix + key;
    if (depth >= FIELD_DEPTH_MAX || !collectFields(field, `${name}.`, into, depth + 1)) into.add(name);
  }
  return true;
}

/** The schema under optional, default and the like; a pipe's input (what the form sends). */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType };
  if (def.type === "pipe" && def.in) return unwrap(def.in);
  if (def.innerType && ["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"].includes(def.type)) {
    return unwrap(def.innerType);
  }
  return schema;
}

/**
 * The key a form that writes something new carries (`submissionKey`, ADR 0009, 0052): a fresh
 * random one each time its loader runs. Every service binds it to what was submitted
 * (`boundKey`), so the page may be kept and served again (ADR 0040): the same key with the same
 * submission is one write (a double submit), with another submission a write of its own.
 */
export function formKey(): string {
  return crypto.randomUUID();
}
