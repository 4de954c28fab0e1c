import { MarkdownField } from "~/components/community/markdown-field";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { useSelectionQuotes } from "~/components/community/selection-quotes";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button, ButtonLink } from "~/components/ui/button";
import { FormAlert, TextField } from "~/components/ui/form-controls";
import { BODY_MAX, MARKDOWN_HELP, TITLE_MAX } from "~/schemas/fields";

// A discussion's reply form and the form that edits a post. The page loads them after hydration (ADR 0031).

export function EditForm({
  kind,
  id,
  title,
  body,
  cancel,
  errors: serverErrors,
}: {
  kind: "discussion" | "reply";
  id: number;
  title?: string;
  body: string;
  cancel: string;
  errors?: Record<string, string>;
}) {
  const { errors, onSubmit, onChange } = useValidatedForm(
    () => import("~/schemas/forum").then((m) => (kind === "reply" ? m.editReplySchema : m.editDiscussionSchema)),
    [],
    serverErrors,
  );
  const fieldId = `edit-${kind}-${id}`;
  return (
    <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-3 flex flex-col gap-4">
      <input type="hidden" name="intent" value="edit" />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
      <FormAlert>{errors.form}</FormAlert>
      {kind === "discussion" ? (
        <TextField name="title" id={`${fieldId}-title`} label="Title" defaultValue={title} error={errors.title} maxLength={TITLE_MAX} />
      ) : null}
      <MarkdownField
        name="body"
        id={`${fieldId}-body`}
        label={kind === "reply" ? "Your reply" : "Your post"}
        rows={8}
        maxLength={BODY_MAX}
        defaultValue={body}
        error={errors.body}
        // The member asked to edit this text: the form opens with it focused (it loads after the
        // navigation that opened it, so focus-after-navigation cannot see it yet; ADR 0039).
        autoFocus
      />
      <div className="flex gap-2">
        <Button type="submit" variant="monk">
          Save Changes
        </Button>
        <ButtonLink to={cancel} variant="outline" preventScrollReset>
          Cancel
        </ButtonLink>
      </div>
    </Form>
  );
}

export function ReplyForm({
  submissionKey,
  errors: serverErrors,
  draft,
  cancel,
  keep,
}: {
  submissionKey: string;
  errors?: Record<string, string>;
  /** What the form starts with when the member came to answer a reply (Quote, Reply). */
  draft: { body: string; replyTo: { id: number; name: string } | null };
  /** Back to a reply that answers nobody in particular. */
  cancel: string;
  /** Where a half-written reply is kept (issue 32). */
  keep: { place: string; label: string };
}) {
  const [replyTo, setReplyTo] = useState(draft.replyTo);
  useSelectionQuotes({ card: "reply", box: "reply-body", onQuote: setReplyTo });
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "reply";
  const { errors, onSubmit, onChange } = useValidatedForm(() => import("~/schemas/forum").then((m) => m.replySchema), [], serverErrors);
  return (
    <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="flex flex-col gap-3" key={submissionKey}>
      <input type="hidden" name="intent" value="reply" />
      <input type="hidden" name="submissionKey" value={submissionKey} />
      {replyTo ? (
        <p className="text-sm text-stone-700">
          <input type="hidden" name="replyTo" value={replyTo.id} />
          Replying to <span className="font-semibold">{replyTo.name}</span> ·{" "}
          <Link to={cancel} className="underline" preventScrollReset onClick={() => setReplyTo(null)}>
            Reply to the discussion instead
          </Link>
        </p>
      ) : null}
      <FormAlert>{errors.form ?? errors.submissionKey}</FormAlert>
      <MarkdownField
        name="body"
        id="reply-body"
        label="Your reply"
        rows={5}
        maxLength={BODY_MAX}
        error={errors.body}
        help={MARKDOWN_HELP}
        defaultValue={draft.body}
        draft={keep}
        // Came to quote or answer a reply: the box is where they write next.
        autoFocus={draft.replyTo !== null}
      />
      <div>
        <Button type="submit" variant="monk" disabled={busy}>
          {busy ? "Posting..." : "Post Reply"}
        </Button>
      </div>
    </Form>
  );
}
