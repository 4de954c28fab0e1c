import { useState, type ChangeEvent, type FormEvent } from "react";
import { safeParse, type core } from "zod/mini";
import { firstErrors, formToObject, type FieldErrors } from "~/schemas/form-data";

/**
 * Seed §4: validation runs on submit and, afterwards, again on each change. The same zod schema runs
 * in the action, so a browser without JavaScript gets the same messages from the server.
 */
export function useValidatedForm(
  schema: core.$ZodType,
  checkboxes: readonly string[],
  serverErrors?: FieldErrors,
  lists: readonly string[] = [],
) {
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  // Server messages (a taken email, wrong credentials) stand until the member edits the form.
  const [dismissed, setDismissed] = useState<FieldErrors | undefined>(undefined);

  const validate = (form: HTMLFormElement) => {
    const result = safeParse(schema, formToObject(form, checkboxes, lists));
    const errors = result.success ? {} : firstErrors(result.error.issues);
    setClientErrors(errors);
    return errors;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    setSubmitted(true);
    const errors = validate(event.currentTarget);
    const firstInvalid = Object.keys(errors)[0];
    if (firstInvalid) {
      event.preventDefault();
      const field = event.currentTarget.elements.namedItem(firstInvalid);
      if (field instanceof HTMLElement) field.focus();
    }
  };

  const onChange = (event: ChangeEvent<HTMLFormElement>) => {
    setDismissed(serverErrors);
    if (submitted) validate(event.currentTarget);
  };

  const server = serverErrors && serverErrors !== dismissed ? serverErrors : {};
  return { errors: { ...server, ...clientErrors }, onSubmit, onChange };
}
