import { Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert, TextField } from "~/components/ui/form-controls";
import type { FieldErrors } from "~/schemas/form-data";

/** What the action answers: the field or form errors, or the message that a mail is on its way. */
export interface MailLinkRequestResult {
  errors: FieldErrors;
  message: string | null;
}

/**
 * A page that asks for the account's address and mails it a link: a password reset link
 * (/forgot-password) or a one-time sign-in link (/signin/email-link, ADR 0042). Both take
 * `forgotPasswordSchema`; after sending, the message replaces the form.
 */
export function MailLinkRequest({
  heading,
  title,
  description,
  submitLabel,
  actionData,
}: {
  heading: string;
  title: string;
  description: string;
  submitLabel: string;
  actionData: MailLinkRequestResult | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/account").then((m) => m.forgotPasswordSchema), [], actionData?.errors);
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="mb-8 text-center font-serif text-4xl font-bold">{heading}</h1>
      <Card>
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        {actionData?.message ? (
          <CardContent>
            <p role="status" className="rounded-md bg-monk-soft p-3 text-sm text-monk-strong">
              {actionData.message}
            </p>
          </CardContent>
        ) : (
          <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange}>
            <CardContent className="flex flex-col gap-5">
              <FormAlert>{errors.form}</FormAlert>
              <TextField name="email" label="Email" type="email" autoComplete="email" error={errors.email} />
            </CardContent>
            <CardFooter>
              <Button type="submit" variant="monk" className="w-full" disabled={busy}>
                {busy ? "Sending..." : submitLabel}
              </Button>
            </CardFooter>
          </Form>
        )}
        <CardFooter>
          <Link to="/signin" className="text-sm font-semibold text-monk-strong underline">
            Back to Sign In
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}
