import { MarkdownField } from "~/components/community/markdown-field";
import { useSelectionQuotes } from "~/components/community/selection-quotes";
import { Form, useNavigation } from "react-router";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button, ButtonLink } from "~/components/ui/button";
import { FormAlert, TextField } from "~/components/ui/form-controls";
import { VirtuePicker } from "~/features/council/virtue-picker";
import { BODY_MAX, MARKDOWN_HELP, QUESTION_LISTS, TITLE_MAX } from "~/schemas/fields";

// A question's edit form and the answer forms. The question page loads them after hydration (ADR 0031).

export function EditQuestionForm({
  title,
  body,
  virtues,
  errors: serverErrors,
  cancel,
}: {
  title: string;
  body: string;
  virtues: string[];
  errors?: Record<string, string>;
  cancel: string;
}) {
  const { errors, onSubmit, onChange } = useValidatedForm(
    () => import("~/schemas/council").then((m) => m.editQuestionSchema),
    [],
    serverErrors,
    QUESTION_LISTS,
  );
  return (
    <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4 flex flex-col gap-4">
      <input type="hidden" name="intent" value="edit-question" />
      <FormAlert>{errors.form}</FormAlert>
      <TextField name="title" id="edit-question-title" label="Title" defaultValue={title} error={errors.title} maxLength={TITLE_MAX} />
      <MarkdownField name="body" id="edit-question-body" label="Your question" rows={8} maxLength={BODY_MAX} defaultValue={body} error={errors.body} />
      <VirtuePicker idPrefix="edit" chosen={virtues} error={errors.virtues} />
      <div className="flex gap-2">
        <Button type="submit" variant="monk">
          Save Changes
        </Button>
        <ButtonLink to={cancel} variant="outline">
          Cancel
        </ButtonLink>
      </div>
    </Form>
  );
}

export function AnswerTextForm({
  intent,
  answerId,
  body,
  submissionKey,
  errors: serverErrors,
  cancel,
  keep,
}: {
  intent: "answer" | "edit-answer";
  answerId?: number;
  body?: string;
  submissionKey?: string;
  errors?: Record<string, string>;
  cancel?: string;
  /** Where a half-written answer is kept (issue 32). */
  keep?: { place: string; label: string };
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const { errors, onSubmit, onChange } = useValidatedForm(
    () => import("~/schemas/council").then((m) => (intent === "answer" ? m.answerSchema : m.editAnswerSchema)),
    [],
    serverErrors,
  );
  const fieldId = intent === "answer" ? "answer-body" : `edit-answer-${answerId}`;
  // An answer's Quote link, clicked with some of its words selected, quotes just those (issue 32).
  useSelectionQuotes({ card: "answer", box: "answer-body" });
  return (
    <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="flex flex-col gap-3" key={submissionKey ?? answerId}>
      <input type="hidden" name="intent" value={intent} />
      {submissionKey ? <input type="hidden" name="submissionKey" value={submissionKey} /> : null}
      {answerId ? <input type="hidden" name="answerId" value={answerId} /> : null}
      <FormAlert>{errors.form ?? errors.submissionKey}</FormAlert>
      <MarkdownField
        name="body"
        id={fieldId}
        draft={keep}
        label="Your answer"
        rows={intent === "answer" ? 6 : 8}
        maxLength={BODY_MAX}
        defaultValue={body}
        error={errors.body}
        help={intent === "answer" ? MARKDOWN_HELP : undefined}
      />
      <div className="flex gap-2">
        <Button type="submit" variant="monk" disabled={busy}>
          {intent === "answer" ? (busy ? "Posting..." : "Post Answer") : "Save Changes"}
        </Button>
        {cancel ? (
          <ButtonLink to={cancel} variant="outline">
            Cancel
          </ButtonLink>
        ) : null}
      </div>
    </Form>
  );
}
