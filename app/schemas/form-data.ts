/**
 * Turns a submitted form into the plain object our schemas read: text fields as strings (absent
 * ones as ""), checkboxes as booleans, and dotted names ("interests.fitness") as nested objects.
 * Shared by the browser (validation before submit) and the server (the action). Given `known`, the
 * names its schema reads (the server's parseForm), every other name is left out: nothing a post
 * makes up becomes an object, nor comes back in an echo of the form.
 */
export function formToObject(
  form: FormData | HTMLFormElement,
  checkboxes: readonly string[] = [],
  /** Fields that may repeat (a group of checkboxes with one name), read as string arrays. */
  lists: readonly string[] = [],
  known?: ReadonlySet<string>,
): Record<string, unknown> {
  const data = form instanceof FormData ? form : new FormData(form);
  const out: Record<string, unknown> = {};
  for (const key of lists) out[key] = data.getAll(key).filter((v): v is string => typeof v === "string");
  for (const [key, value] of data.entries()) {
    if (typeof value !== "string" || lists.includes(key) || (known && !known.has(key))) continue;
    // A checked box sends "on" (its default value); anything else counts as unchecked.
    setPath(out, key, checkboxes.includes(key) ? value === "on" || value === "true" : value);
  }
  for (const key of checkboxes) {
    if (!data.has(key)) setPath(out, key, false);
  }
  return out;
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown) {
  const parts = dotted.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (part === "__proto__" || part === "constructor" || part === "prototype") return;
    if (typeof node[part] !== "object" || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1];
  if (last === "__proto__" || last === "constructor" || last === "prototype") return;
  node[last] = value;
}

export type FieldErrors = Record<string, string>;

export { MESSAGE_SEPARATOR } from "~/lib/form-messages";

/** The first message for each field, the way the seed's forms show one message under a field. */
export function firstErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "form";
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}
