import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { useValidatedForm, type SchemaLoader } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert, TextField } from "~/components/ui/form-controls";
import { CheckCircle2 } from "~/components/ui/icons/check-circle-2";
import type { FieldErrors } from "~/schemas/form-data";

/** The settings page's forms; each posts to `/settings?intent=<intent>` and is parsed by its own schema. */
export type SettingsIntent = "profile" | "avatar" | "remove-avatar" | "email" | "password" | "delete" | "notifications" | "unmute";

/** What the settings action answers a form: its errors, or what it did. */
export interface SettingsResult {
  intent: SettingsIntent;
  errors: FieldErrors;
  done?: string;
}

/** What a settings form did, announced politely. */
export function Done({ children }: { children?: string }) {
  if (!children) return null;
  return (
    <p role="status" className="flex items-center gap-2 rounded-md bg-monk-soft p-3 text-sm font-medium text-monk-strong">
      <CheckCircle2 aria-hidden="true" className="size-4 shrink-0" />
      {children}
    </p>
  );
}

/**
 * One settings card: a titled form that validates with its schema, shows the form's error and what
 * was done, and submits with one button that says it is busy while its own form is sent (the intent
 * travels in the query string, so the other cards stay idle).
 */
export function SettingsForm({
  intent,
  title,
  description,
  schema,
  checkboxes = [],
  result,
  submit,
  submitting,
  tone = "monk",
  className,
  children,
}: {
  intent: SettingsIntent;
  title: string;
  description: ReactNode;
  schema: SchemaLoader;
  checkboxes?: readonly string[];
  result?: SettingsResult;
  submit: string;
  submitting: string;
  tone?: "monk" | "warrior";
  className?: string;
  children: (errors: FieldErrors) => ReactNode;
}) {
  const navigation = useNavigation();
  const action = `/settings?intent=${intent}`;
  const busy = navigation.state === "submitting" && navigation.formAction?.endsWith(`intent=${intent}`) === true;
  const { errors, onSubmit, onChange } = useValidatedForm(schema, checkboxes, result?.errors);
  const titleId = `${intent}-settings`;
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle id={titleId}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <Form method="post" action={action} noValidate onSubmit={onSubmit} onChange={onChange} aria-labelledby={titleId}>
        <CardContent className="flex flex-col gap-5">
          <FormAlert>{errors.form}</FormAlert>
          <Done>{result?.done}</Done>
          {children(errors)}
        </CardContent>
        <CardFooter>
          <Button type="submit" variant={tone} disabled={busy}>
            {busy ? submitting : submit}
          </Button>
        </CardFooter>
      </Form>
    </Card>
  );
}

/** The current password, which every sign-in change asks for; `id` tells the three forms' fields apart. */
export function CurrentPasswordField({ id, error }: { id: string; error?: string }) {
  return <TextField name="currentPassword" id={id} label="Current password" type="password" autoComplete="current-password" error={error} />;
}
