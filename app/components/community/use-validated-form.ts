import { useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import type { ZodMiniType } from "zod/mini";
import { firstErrors, formToObject, type FieldErrors } from "~/schemas/form-data";

/** Where a form's schema comes from: `() => import("~/schemas/forum").then((m) => m.replySchema)`. */
export type SchemaLoader = () => Promise<ZodMiniType>;

type Check = (values: unknown) => FieldErrors;

/**
 * Seed §4: validation runs on submit and, afterwards, again on each change. The same zod schema runs
 * in the action, so a browser without JavaScript gets the same messages from the server.
 *
 * The schema (and zod with it, 7 KB gzip) is fetched after hydration rather than before it (issue 13,
 * ADR 0029): no page needs validation to become interactive. A submit that comes before the schema has
 * arrived waits for it, validates, and submits again with the same button.
 */
export function useValidatedForm(loadSchema: SchemaLoader, checkboxes: readonly string[], serverErrors?: FieldErrors, lists: readonly string[] = []) {
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  // Server messages (a taken email, wrong credentials) stand until the member edits the form.
  const [dismissed, setDismissed] = useState<FieldErrors | undefined>(undefined);
  const check = useRef<Check | null>(null);
  const loading = useRef<Promise<Check> | null>(null);
  // After a failed fetch of the schema the next submit goes to the server unchecked (it validates too).
  const unchecked = useRef(false);

  // Called again after each render (the loader is a new arrow each time): a no-op once it has started.
  const load = useCallback(() => {
    loading.current ??= loadSchema().then((schema) => {
      const run: Check = (values) => {
        const result = schema.safeParse(values);
        return result.success ? {} : firstErrors(result.error.issues);
      };
      check.current = run;
      return run;
    });
    return loading.current;
  }, [loadSchema]);
  useEffect(() => {
    void load().catch(() => {
      // Offline or a new deployment: the server validates anyway; the next submit tries again.
      loading.current = null;
    });
  }, [load]);

  const validate = (run: Check, form: HTMLFormElement) => {
    const errors = run(formToObject(form, checkboxes, lists));
    setClientErrors(errors);
    const firstInvalid = Object.keys(errors)[0];
    if (firstInvalid) {
      const field = form.elements.namedItem(firstInvalid);
      if (field instanceof HTMLElement) field.focus();
    }
    return errors;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    setSubmitted(true);
    const form = event.currentTarget;
    if (unchecked.current) {
      unchecked.current = false;
      return;
    }
    if (check.current) {
      if (Object.keys(validate(check.current, form)).length > 0) event.preventDefault();
      return;
    }
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    load().then(
      (run) => {
        if (Object.keys(validate(run, form)).length === 0) form.requestSubmit(submitter);
      },
      () => {
        loading.current = null;
        unchecked.current = true;
        form.requestSubmit(submitter);
      },
    );
  };

  const onChange = (event: ChangeEvent<HTMLFormElement>) => {
    setDismissed(serverErrors);
    if (submitted && check.current) setClientErrors(check.current(formToObject(event.currentTarget, checkboxes, lists)));
  };

  const server = serverErrors && serverErrors !== dismissed ? serverErrors : {};
  return { errors: { ...server, ...clientErrors }, onSubmit, onChange };
}
